/** fast-check generators of hostile HTTP requests for one route of the OpenAPI document. */
import fc from 'fast-check';
import {
  deepJson,
  hostileJson,
  hostileString,
  MALFORMED_JSON,
  mutatedBody,
  mutatedExample,
  PROTOTYPE_KEYS,
  percentEncode,
} from './hostile-values.js';
import type { Parameter, Route } from './openapi-routes.js';

export interface HostileRequest {
  readonly method: string;
  /** Path and query, already percent-encoded (or deliberately not). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body?: string | Buffer;
}

/** A valid access token and data API key, so that requests also get past the gates. */
export interface Credentials {
  readonly jwt: string;
  readonly apiKey: string;
}

/** Percent sequences a URL decoder chokes on, and dot segments. */
const RAW_SEGMENTS = ['%', '%Z', '%ZZ', '%E0%A4%A', '%C0%AF', '%00', '%2e%2e', '..', '.', '%2F', '%252F', ';', '%20', '+'];

/** A path parameter: hostile text URL-encoded, raw bad percent sequences, or very long. */
const pathValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: hostileString.filter((text) => text !== '').map(percentEncode) },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  { weight: 1, arbitrary: fc.constantFrom('1', '2', '3', '0.0.1', '1:1') },
  { weight: 1, arbitrary: fc.integer({ min: 129, max: 4_000 }).map((length) => 'x'.repeat(length)) },
);

const queryText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: hostileString.map(percentEncode) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
);

/** One query parameter: absent, once, repeated, or in the array and object syntaxes of qs-style parsers. */
function queryPairs(name: string): fc.Arbitrary<string[]> {
  return fc.oneof(
    fc.constant<string[]>([]),
    queryText.map((value) => [`${name}=${value}`]),
    fc.array(queryText, { minLength: 2, maxLength: 4 }).map((values) => values.map((value) => `${name}=${value}`)),
    queryText.map((value) => [`${name}[]=${value}`, `${name}[0]=${value}`]),
    fc.constantFrom(...PROTOTYPE_KEYS).map((key) => [`${name}[${key}]=1`]),
    fc.constant<string[]>([name]),
  );
}

const extraQuery: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<string[]>([]) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS).map((key) => [`${key}=1`, `${key}[polluted]=1`]) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100, max: 1_000 }).map((count) => Array.from({ length: count }, (_, i) => `k${i}=${i}`)),
  },
  { weight: 1, arbitrary: fc.constant<string[]>(['&&&', '=', '==', '?']) },
);

function queryOf(parameters: readonly Parameter[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.tuple(...parameters.map((parameter) => queryPairs(parameter.name))), extraQuery)
    .map(([pairs, extra]) => [...pairs.flat(), ...extra])
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`));
}

function pathOf(route: Route): fc.Arbitrary<string> {
  const names = route.pathParams.map((parameter) => parameter.name);
  return fc
    .tuple(...names.map(() => pathValue))
    .map((values) => names.reduce((path, name, index) => path.replace(`{${name}}`, values[index] ?? ''), route.path));
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  '*/*',
  ';',
  '',
];

/** A body and its content type: the route's schema mutated, malformed or deep JSON, or too big. */
function bodyOf(
  route: Route,
  bodyLimit: number,
  example: unknown,
): fc.Arbitrary<{ type: string | undefined; body: string | Buffer | undefined }> {
  const fromSchema = route.body === undefined ? hostileJson : mutatedBody(route.body);
  // A real body mutated reaches further than one built from the schema alone (a signed order gets past the schema).
  const json =
    example === undefined
      ? fromSchema
      : fc.oneof({ weight: 3, arbitrary: mutatedExample(example) }, { weight: 1, arbitrary: fromSchema });
  const type = fc.oneof(
    { weight: 6, arbitrary: fc.constant('application/json') },
    { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const text = fc.oneof(
    { weight: 8, arbitrary: json },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON) },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: fc.integer({ min: bodyLimit + 1, max: bodyLimit * 3 }).map((size) => `{"a":"${'x'.repeat(size)}"}`) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
  );
  const sent = fc.tuple(type, text).map(([type, body]) => ({ type, body: body as string | Buffer | undefined }));
  // Routes that read no body still meet one now and then.
  if (route.body === undefined)
    return fc.oneof({ weight: 4, arbitrary: fc.constant({ type: undefined, body: undefined }) }, { weight: 1, arbitrary: sent });
  return fc.oneof(
    { weight: 9, arbitrary: sent },
    { weight: 1, arbitrary: fc.constant({ type: 'application/json', body: undefined }) },
  );
}

/** Authorization and x-api-key: mostly the valid one, else missing, malformed, tampered or huge. */
function authHeaders(route: Route, credentials: Credentials): fc.Arbitrary<Record<string, string | string[]>> {
  const { jwt, apiKey } = credentials;
  const bearer = fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${jwt}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        `bearer ${jwt}`,
        `Bearer  ${jwt}`,
        `Basic ${jwt}`,
        `Bearer ${jwt}x`,
        `Bearer ${jwt.slice(0, -4)}AAAA`,
        `Bearer ${jwt.split('.').slice(0, 2).join('.')}.`,
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIweDAwIn0.',
        'Bearer a.b.c',
        'Bearer ....',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 12_000 }).map((size) => `Bearer ${'A'.repeat(size)}`) },
    { weight: 1, arbitrary: hostileString.map((text) => `Bearer ${percentEncode(text)}`) },
  );
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | string[]>(apiKey) },
    { weight: 1, arbitrary: fc.constant<string | string[]>([apiKey, apiKey]) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | string[]>(`${apiKey} `, apiKey.toUpperCase(), `${apiKey}\u00e9`, '__proto__', ' '),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 12_000 }).map<string | string[]>((size) => 'k'.repeat(size)) },
  );
  if (route.auth === 'bearer')
    return fc.option(bearer, { freq: 8 }).map((value) => (value === null ? {} : { authorization: value }));
  if (route.auth === 'apiKey') return fc.option(key, { freq: 8 }).map((value) => (value === null ? {} : { 'x-api-key': value }));
  return fc.oneof(
    fc.constant({}),
    bearer.map((value) => ({ authorization: value })),
  );
}

/** x-request-id and other headers a client controls. */
const otherHeaders: fc.Arbitrary<Record<string, string | string[]>> = fc.record(
  {
    'x-request-id': fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom<string | string[]>(
          '__proto__',
          'constructor',
          '',
          ' ',
          'a'.repeat(65),
          '../x',
          'id\u00e9',
          '1,2',
        ),
      },
      { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map<string | string[]>((size) => 'r'.repeat(size)) },
      { weight: 1, arbitrary: fc.constant<string | string[]>(['one', 'two']) },
    ),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'not an address', '::1, 10.0.0.1', ''),
    accept: fc.constantFrom('application/json', 'text/html', '*/*', ''),
  },
  { requiredKeys: [] },
);

/** Hostile requests for one route of the document; `example` is a real, valid body of the route to mutate, when there is one. */
export function hostileRequests(
  route: Route,
  credentials: Credentials,
  bodyLimit: number,
  example?: unknown,
): fc.Arbitrary<HostileRequest> {
  const method = fc.oneof(
    { weight: 19, arbitrary: fc.constant(route.method) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
  );
  return fc
    .record({
      method,
      path: pathOf(route),
      query: queryOf(route.query),
      body: bodyOf(route, bodyLimit, example),
      auth: authHeaders(route, credentials),
      other: otherHeaders,
    })
    .map(({ method, path, query, body, auth, other }) => {
      const headers: Record<string, string | string[]> = { ...other, ...auth };
      if (body.type !== undefined) headers['content-type'] = body.type;
      const request: HostileRequest = { method, path: `${path}${query}`, headers };
      return body.body === undefined ? request : { ...request, body: body.body };
    });
}
