import { rawIntegerForm } from '@dex/core';
import { ADDRESS_PATTERN, ORDER_ID_TEXT_PATTERN, RAW_INTEGER_PATTERN } from '@dex/protocol';
import type { FastifySchemaValidationError } from 'fastify';

/** Longest piece of client text (an unknown field's name) echoed in a message. */
const MAX_ECHOED = 64;

/** What each pattern of the wire schemas stands for, to follow "must be". */
const PATTERN_FORMS: ReadonlyMap<string, (field: string) => string> = new Map([
  [RAW_INTEGER_PATTERN, rawIntegerForm],
  [ADDRESS_PATTERN, () => 'a 0x-prefixed EVM address of 40 hex digits'],
  [ORDER_ID_TEXT_PATTERN, () => 'the digits of an order id'],
]);

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/** A field that holds a raw integer as a string: its "must be a string" says which string. */
const RAW_INTEGER_FIELD = /(amount|^nonce|nonceFloor)$/i;

/** `/orderRequests/0/inputAmount` as a client reads it: `orderRequests[0].inputAmount`; the whole body or query by its name. */
function fieldOf(instancePath: string, dataVar: string): string {
  const parts = instancePath.split('/').slice(1);
  if (parts.length === 0) return dataVar === 'querystring' ? 'the query' : dataVar;
  return parts.map((part, index) => (/^[0-9]+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

/** What one complaint asks of the field, to follow "must". */
function demand(error: FastifySchemaValidationError, field: string): string {
  const params = error.params as Record<string, unknown>;
  const name = field.split(/[.[]/).at(-1) ?? field;
  switch (error.keyword) {
    case 'type': {
      const type = String(params.type);
      if (type === 'string' && RAW_INTEGER_FIELD.test(name)) return `be ${rawIntegerForm(name)}`;
      return `be ${type
        .split(',')
        .map((each) => TYPE_WORDS[each] ?? each)
        .join(' or ')}`;
    }
    case 'pattern': {
      const form = PATTERN_FORMS.get(String(params.pattern));
      return form === undefined ? 'be text of the documented form' : `be ${form(name)}`;
    }
    case 'required':
      return `have the field ${String(params.missingProperty)}`;
    case 'additionalProperties':
      return `not have the field "${String(params.additionalProperty).slice(0, MAX_ECHOED)}", which is not one of its fields`;
    case 'minimum':
      return `be at least ${String(params.limit)}`;
    case 'maximum':
      return `be at most ${String(params.limit)}`;
    case 'minItems':
      return `hold at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `hold at most ${String(params.limit)} items`;
    case 'minLength':
      return `be at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'} long`;
    case 'maxLength':
      return `be at most ${String(params.limit)} characters long`;
    case 'enum':
      return `be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `be ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message?.replace(/^must /, '') ?? 'be of the documented form';
  }
}

/** "be an integer or a string" rather than "be an integer or be a string". */
function alternatives(demands: readonly string[]): string {
  if (!demands.every((demand) => demand.startsWith('be '))) return demands.join(' or ');
  return `be ${demands.map((demand) => demand.slice(3)).join(' or ')}`;
}

/**
 * A request's schema failures as one sentence a client can act on, naming the field and the form
 * it takes in words. The complaints about the deepest field win: a union's other branches
 * ("body must be array") and its summary ("must match a schema in anyOf") say less than the
 * field that is wrong, and the alternatives of one field are joined with "or".
 */
export function describeSchemaErrors(errors: readonly FastifySchemaValidationError[], dataVar: string): string {
  const specific = errors.filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf');
  if (specific.length === 0) return `${fieldOf('', dataVar)} is not of the documented form`;
  const depth = (error: FastifySchemaValidationError) => error.instancePath.split('/').length;
  const deepest = Math.max(...specific.map(depth));
  const byField = new Map<string, string[]>();
  for (const error of specific.filter((each) => depth(each) === deepest)) {
    const field = fieldOf(error.instancePath, dataVar);
    const demands = byField.get(field) ?? [];
    const wanted = demand(error, field);
    if (!demands.includes(wanted)) demands.push(wanted);
    byField.set(field, demands);
  }
  return [...byField].map(([field, demands]) => `${field} must ${alternatives(demands)}`).join('; ');
}
