/**
 * fast-check generators of hostile values: strings for paths, queries and headers, and JSON texts
 * (written as text, so numbers JSON.stringify cannot write, prototype keys and deep nesting reach
 * the server's parser as a client could send them).
 */
import fc from 'fast-check';
import type { JsonSchema } from './openapi-routes.js';

/** 2^256 + 1: past every uint256 the chain takes. */
const TWO_256_PLUS_1 = (2n ** 256n + 1n).toString();

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/** Strings that have broken parsers, number readers and lookups before. */
const NASTY_STRINGS = [
  ...PROTOTYPE_KEYS,
  '',
  ' ',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e400',
  '-1e400',
  '1e-400',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '0b1',
  '0o7',
  ' 1',
  '1 ',
  '01',
  '+1',
  '9007199254740993',
  '18446744073709551617',
  TWO_256_PLUS_1,
  `-${TWO_256_PLUS_1}`,
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  '\u0000',
  '\uFEFF1',
  '😀',
  '\uD800',
  'é',
  '../../etc/passwd',
  "1' OR '1'='1",
  '1;DROP TABLE orders',
  '0.0.1',
  '0.0.-1',
  '0.0.99999999999999999999',
  '0x0000000000000000000000000000000000000000',
  '0xZZ',
  '1,2',
  'asc',
  'desc',
  'LIMIT',
  'MARKET',
];

/** A hostile string of any text, for places that URL-encode or JSON-escape it. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('9', 'a', '%', 'é'), fc.integer({ min: 100, max: 5_000 })).map(([c, n]) => c.repeat(n)),
  },
);

/** Numbers as JSON text, including ones no double holds. */
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '1e-400',
  TWO_256_PLUS_1,
  `-${TWO_256_PLUS_1}`,
  '-1',
  '0',
  '-0',
  '0.5',
  '1.0000000000000001',
  '1E+2',
  '9007199254740993',
  '123456789012345678901234567890',
];

const jsonString = (text: string) => JSON.stringify(text);

/** Percent-encodes every byte of the text's UTF-8 but the unreserved ones; lone surrogates become U+FFFD as a client's encoder would write them. */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** A JSON scalar as text. */
const scalarText: fc.Arbitrary<string> = fc.oneof(
  hostileString.map(jsonString),
  fc.constantFrom(...RAW_NUMBERS),
  fc.constantFrom('true', 'false', 'null'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
);

const keyText: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), hostileString).map(jsonString);

/** Any JSON value as text, a few levels deep, with prototype keys among the object keys. */
export const hostileJson: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarText,
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(keyText, tie('value')), { maxLength: 4 })
      .map((pairs) => `{${pairs.map(([key, value]) => `${key}:${value}`).join(',')}}`),
  ),
})).value;

/** Nesting far past any recursion a parser or validator should do on a request. */
export const deepJson: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('array', 'object', 'mixed'), fc.constantFrom(1_000, 10_000, 50_000))
  .map(([kind, depth]) => {
    if (kind === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    if (kind === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    return `${'{"__proto__":['.repeat(depth)}null${']}'.repeat(depth)}`;
  });

/** Texts that are not JSON, or not quite. */
export const MALFORMED_JSON = [
  '{',
  '}',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  '[1,2',
  'NaN',
  'undefined',
  '{"a":1}{"b":2}',
  '\uFEFF{}',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":"\\x41"}',
  '{"a":01}',
  '{"a":1e}',
  '{"a":--1}',
  '',
  ' ',
  'null',
  '"text"',
  '1',
  '[]',
];

/** A plausible value for a schema (what a well-behaved client would send), as JSON text. */
export function plausible(schema: JsonSchema, depth = 0): string {
  const first = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (first !== undefined) return plausible(first, depth);
  if (schema.enum !== undefined && schema.enum.length > 0) return JSON.stringify(schema.enum[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return String(schema.minimum ?? 1);
  if (type === 'boolean') return 'false';
  if (type === 'array') return depth > 4 || schema.items === undefined ? '[]' : `[${plausible(schema.items, depth + 1)}]`;
  if (type === 'object' || schema.properties !== undefined) {
    if (depth > 4) return '{}';
    const pairs = Object.entries(schema.properties ?? {}).map(
      ([key, value]) => `${jsonString(key)}:${plausible(value, depth + 1)}`,
    );
    return `{${pairs.join(',')}}`;
  }
  const pattern = schema.pattern ?? '';
  if (pattern.includes('0x')) return jsonString(`0x${'ab'.repeat(20)}`);
  if (pattern.includes('[0-9]')) return '"1"';
  return '"1"';
}

/**
 * An object body built from the schema with its fields mutated: a field may be left out, replaced by
 * a hostile value or given a plausible one; hostile extra fields and prototype keys may come along.
 */
export function mutatedBody(schema: JsonSchema): fc.Arbitrary<string> {
  const target = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema;
  const fields = Object.entries(target.properties ?? {});
  if (fields.length === 0) return hostileJson;
  const field = ([key, value]: [string, JsonSchema]) =>
    fc
      .oneof(
        { weight: 2, arbitrary: fc.constant(plausible(value)) },
        { weight: 2, arbitrary: hostileJson },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant(`[${plausible(value)}]`) },
        { weight: 1, arbitrary: mutatedBody(value.items ?? value).map((inner) => `[${inner}]`) },
      )
      .map((text) => (text === undefined ? undefined : `${jsonString(key)}:${text}`));
  const extras = fc.array(
    fc.tuple(keyText, hostileJson).map(([key, value]) => `${key}:${value}`),
    { maxLength: 2 },
  );
  return fc
    .tuple(fc.tuple(...fields.map(field)), extras)
    .map(([pairs, extra]) => `{${[...pairs.filter((pair) => pair !== undefined), ...extra].join(',')}}`);
}

type Path = readonly (string | number)[];
type Mutation = { kind: 'replace'; text: string } | { kind: 'delete' } | { kind: 'extra'; key: string; text: string };

/** Paths of every value inside `value` (the root excluded). */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...prefix, key], ...pathsOf(item, [...prefix, key])]);
}

/** `value` as JSON text with one mutation at `path`. */
function render(value: unknown, path: Path, mutation: Mutation): string {
  if (path.length === 0) {
    if (mutation.kind === 'replace') return mutation.text;
    if (mutation.kind === 'extra' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const pairs = Object.entries(value).map(([key, item]) => `${jsonString(key)}:${JSON.stringify(item)}`);
      return `{${[...pairs, `${mutation.key}:${mutation.text}`].join(',')}}`;
    }
    if (mutation.kind === 'extra' && Array.isArray(value))
      return `[${[...value.map((item) => JSON.stringify(item)), mutation.text].join(',')}]`;
    return JSON.stringify(value);
  }
  const [head, ...rest] = path;
  const child = (key: string | number, item: unknown) =>
    key !== head
      ? JSON.stringify(item)
      : rest.length === 0 && mutation.kind === 'delete'
        ? undefined
        : render(item, rest, mutation);
  if (Array.isArray(value))
    return `[${value
      .map((item, i) => child(i, item))
      .filter((text) => text !== undefined)
      .join(',')}]`;
  const pairs = Object.entries(value as object).map(([key, item]) => {
    const text = child(key, item);
    return text === undefined ? undefined : `${jsonString(key)}:${text}`;
  });
  return `{${pairs.filter((pair) => pair !== undefined).join(',')}}`;
}

/** A real, valid body with one value replaced by a hostile one, removed, or given a hostile sibling. */
export function mutatedExample(example: unknown): fc.Arbitrary<string> {
  const paths: Path[] = [[], ...pathsOf(example)];
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 4, arbitrary: hostileJson.map((text) => ({ kind: 'replace', text }) as const) },
    { weight: 1, arbitrary: deepJson.map((text) => ({ kind: 'replace', text }) as const) },
    { weight: 2, arbitrary: fc.constant({ kind: 'delete' } as const) },
    { weight: 2, arbitrary: fc.tuple(keyText, hostileJson).map(([key, text]) => ({ kind: 'extra', key, text }) as const) },
  );
  return fc.tuple(fc.constantFrom(...paths), mutation).map(([path, change]) => render(example, path, change));
}
