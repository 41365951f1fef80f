import { FORM } from '@dex/protocol';
import type { FastifySchemaValidationError } from 'fastify';
import {
  alternativesOf,
  demandOf,
  formOf,
  requiredSentence,
  type SchemaComplaint,
  type SchemaNode,
  unknownFieldSentence,
} from './schema-words.js';

/** How a client names each part of a request in a message: `body.orderRequests[0]`, `query.limit`, `path.orderbookId`. */
const PART_NAMES: Readonly<Record<string, string>> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** `/orderRequests/0/inputAmount` of the body as a client reads it: `body.orderRequests[0].inputAmount`. */
function fieldOf(instancePath: string, dataVar: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  return (PART_NAMES[dataVar] ?? dataVar) + parts.map((part) => (/^[0-9]+$/.test(part) ? `[${part}]` : `.${part}`)).join('');
}

/** Whether a value has the JSON type a schema (a union's branch) declares; a branch that declares none takes any. */
function hasTypeOf(branch: SchemaNode, value: unknown): boolean {
  const declared = branch.type ?? (branch.const === undefined ? undefined : typeof branch.const);
  if (declared === undefined) return true;
  const types = typeof declared === 'string' ? [declared] : declared;
  return types.some((type) => {
    if (type === 'integer') return Number.isInteger(value);
    if (type === 'array') return Array.isArray(value);
    if (type === 'null') return value === null;
    if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
    return typeof value === type;
  });
}

/** The one branch of a failed union whose type the value has: the branch the client evidently meant. */
function meantBranch(union: SchemaComplaint): number | undefined {
  const branches = union.parentSchema?.anyOf ?? [];
  const matching = branches.flatMap((branch, index) => (hasTypeOf(branch, union.data) ? [index] : []));
  return matching.length === 1 ? matching[0] : undefined;
}

/** The complaints, less those about the branches of each union that the client evidently did not mean. */
function meantComplaints(complaints: readonly SchemaComplaint[]): {
  readonly complaints: readonly SchemaComplaint[];
  readonly narrowed: ReadonlySet<SchemaComplaint>;
} {
  let kept = complaints;
  const narrowed = new Set<SchemaComplaint>();
  for (const union of complaints.filter((complaint) => complaint.keyword === 'anyOf')) {
    const branch = meantBranch(union);
    if (branch === undefined || !kept.includes(union)) continue;
    narrowed.add(union);
    const inside = `${union.schemaPath}/`;
    const meant = `${inside}${branch}/`;
    kept = kept.filter((complaint) => !complaint.schemaPath.startsWith(inside) || complaint.schemaPath.startsWith(meant));
  }
  return { complaints: kept, narrowed };
}

/** A query parameter the route takes once, sent twice: the parser made a list of it. */
function isRepeatedParameter(complaint: SchemaComplaint, dataVar: string): boolean {
  return dataVar === 'querystring' && complaint.keyword === 'type' && Array.isArray(complaint.data);
}

/** The sentence about one field, from the complaints about it (a union's, and its branches'). */
function sentenceAbout(
  complaints: readonly SchemaComplaint[],
  narrowed: ReadonlySet<SchemaComplaint>,
  field: string,
  dataVar: string,
): string {
  const union = complaints
    .filter((complaint) => complaint.keyword === 'anyOf')
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
  const specific = complaints.find((complaint) => complaint.keyword !== 'anyOf' && complaint.keyword !== 'oneOf');
  if (union !== undefined && (!narrowed.has(union) || specific === undefined)) {
    const schema = union.parentSchema ?? {};
    return `${field} must be ${formOf(schema) ?? alternativesOf(schema)}`;
  }
  if (specific === undefined) return `${field} is not of the form the API documents`;
  if (specific.keyword === 'required') return requiredSentence(specific, field);
  if (specific.keyword === 'additionalProperties') return unknownFieldSentence(specific, field);
  if (isRepeatedParameter(specific, dataVar)) return `${field} must be given once`;
  // The field's own form, else its union's (the branch was one way to write it), else the keyword's words.
  const form = specific.parentSchema?.[FORM] ?? formOf(union?.parentSchema);
  return form === undefined ? `${field} must ${demandOf(specific)}` : `${field} must be ${form}`;
}

/**
 * A request's schema failures as one sentence a client can act on: the field as it writes it
 * (`body.orderRequests[0].inputAmount`) and what it takes in words, once. Of a union (a body that
 * is an object or a list; an id as a number or its digits) only the branch of the value's own
 * type speaks, when one branch has it; then the deepest field complained about is the one at fault.
 * The words come from the schema: a field's form (protocol's `x-form`), else its keywords; never a
 * regular expression or a union's summary. Ajv's `verbose` option must be on: it hands each
 * complaint its schema and value.
 */
export function describeSchemaErrors(errors: readonly FastifySchemaValidationError[], dataVar: string): string {
  const { complaints, narrowed } = meantComplaints(errors as readonly SchemaComplaint[]);
  const depth = (complaint: SchemaComplaint) => complaint.instancePath.split('/').length;
  const deepest = complaints.reduce<SchemaComplaint | undefined>(
    (found, complaint) => (found === undefined || depth(complaint) > depth(found) ? complaint : found),
    undefined,
  );
  const path = deepest?.instancePath ?? '';
  const about = complaints.filter((complaint) => complaint.instancePath === path);
  return sentenceAbout(about, narrowed, fieldOf(path, dataVar), dataVar);
}
