import { FORM } from '@dex/protocol';

/** A JSON schema node, as Ajv hands it back with an error (its `parentSchema`): only the parts the words read. */
export interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly anyOf?: readonly SchemaNode[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly format?: string;
  readonly [FORM]?: string;
}

/** One schema complaint, as Ajv's `verbose` option gives it: the schema holding the keyword, and the value it judged. */
export interface SchemaComplaint {
  readonly keyword: string;
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly params: Record<string, unknown>;
  readonly parentSchema?: SchemaNode;
  readonly data?: unknown;
}

/** Longest piece of client text (an unknown field's name) echoed in a message. */
const MAX_ECHOED = 64;

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

const FORMAT_WORDS: Readonly<Record<string, string>> = { 'date-time': 'an ISO 8601 date and time' };

/** "A", "A or B", "A, B or C". */
export function oneOf(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** A literal as a person reads it: text bare (LIMIT), anything else as JSON (0, true). */
function literal(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function typeWords(type: string | readonly string[] | undefined): string[] {
  const types = typeof type === 'string' ? [type] : [...(type ?? [])];
  return types.map((each) => TYPE_WORDS[each] ?? each);
}

/** The values a schema allows when it names them all (a literal, an enum, true/false), else undefined. */
function values(schema: SchemaNode): string[] | undefined {
  if (schema.const !== undefined) return [literal(schema.const)];
  if (schema.enum !== undefined) return schema.enum.map(literal);
  return schema.type === 'boolean' ? ['true', 'false'] : undefined;
}

/**
 * What a schema takes, in words to follow "must be", when it says so as a whole: its own form,
 * or the values a union of literals names ("LIMIT or MARKET"); undefined for a schema only its
 * keywords describe.
 */
export function formOf(schema: SchemaNode | undefined): string | undefined {
  if (schema === undefined) return undefined;
  if (typeof schema[FORM] === 'string') return schema[FORM];
  const named = schema.anyOf === undefined ? values(schema) : schema.anyOf.map(values);
  if (named === undefined || named.some((each) => each === undefined)) return undefined;
  return oneOf((named as (string | string[])[]).flat());
}

/** A union without a form of its own, in words: its branches' forms or types joined with "or". */
export function alternativesOf(union: SchemaNode): string {
  const words = (union.anyOf ?? []).flatMap((branch) => formOf(branch) ?? typeWords(branch.type));
  return words.length === 0 ? 'of the form the API documents' : oneOf([...new Set(words)]);
}

/** Bounds as words: "from 1 to 250", "at least 1", "at most 250". */
function bounds(low: number | undefined, high: number | undefined): string {
  if (low !== undefined && high !== undefined) return low === high ? `exactly ${low}` : `from ${low} to ${high}`;
  return low !== undefined ? `at least ${low}` : `at most ${String(high)}`;
}

function plural(count: number | undefined, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}

/** What one complaint asks of its field, to follow "must": "be an integer from 0 to 249". */
export function demandOf(complaint: SchemaComplaint): string {
  const schema = complaint.parentSchema ?? {};
  const params = complaint.params;
  switch (complaint.keyword) {
    case 'type':
      return `be ${oneOf(typeWords(params.type === undefined ? undefined : String(params.type).split(',')))}`;
    case 'minimum':
    case 'maximum':
      return `be ${schema.type === 'integer' ? 'an integer' : 'a number'} ${bounds(schema.minimum, schema.maximum)}`;
    case 'minItems':
    case 'maxItems':
      return `hold ${bounds(schema.minItems, schema.maxItems)} ${plural(schema.maxItems ?? schema.minItems, 'item')}`;
    case 'minLength':
    case 'maxLength':
      return `be ${bounds(schema.minLength, schema.maxLength)} ${plural(schema.maxLength ?? schema.minLength, 'character')} long`;
    case 'enum':
    case 'const':
      return `be ${formOf(schema) ?? 'one of the values the API documents'}`;
    case 'format':
      return `be ${FORMAT_WORDS[String(params.format)] ?? `of the format ${String(params.format)}`}`;
    default:
      // A pattern without a form, or a keyword these words do not know: never Ajv's own text, which may hold a regular expression.
      return 'be of the form the API documents at /docs';
  }
}

/** "body.type is required: LIMIT or MARKET". */
export function requiredSentence(complaint: SchemaComplaint, field: string): string {
  const name = String(complaint.params.missingProperty);
  const form = formOf(complaint.parentSchema?.properties?.[name]);
  return `${field}.${name} is required${form === undefined ? '' : `: ${form}`}`;
}

/** `body.orderRequests[0] has an unknown field "makerOnyl"; its fields are orderbookId, type, ...`. */
export function unknownFieldSentence(complaint: SchemaComplaint, field: string): string {
  const extra = JSON.stringify(String(complaint.params.additionalProperty).slice(0, MAX_ECHOED));
  const known = Object.keys(complaint.parentSchema?.properties ?? {});
  return `${field} has an unknown field ${extra}; ${known.length === 0 ? 'it takes none' : `its fields are ${known.join(', ')}`}`;
}
