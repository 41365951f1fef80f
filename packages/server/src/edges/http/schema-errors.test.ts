import { PLAIN_INTEGER_FORM, TOKEN_UNITS_FORM } from '@dex/core';
import { FORM } from '@dex/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader, WHBAR_SELL_REQUEST } from '../../test-support/harness.js';

/** Schema failures of any route, as a client reads them: the field, and what it takes, in words, once. */

let h: Harness;
let trader: Trader;

beforeAll(async () => {
  h = await startHarness();
  trader = await Trader.secp256k1(h);
});

afterAll(async () => {
  await h?.close();
});

const REQUEST = WHBAR_SELL_REQUEST;
const REQUEST_FIELDS =
  'orderbookId, type, deadline, inputToken, inputAmount, outputToken, outputAmount, recipient, makerOnly, takerOnce, isAMMEnabled';
const ADDRESS = 'a 0x-prefixed EVM address of 40 hex digits, e.g. "0x5fbdb2315678afecb367f032d93f642f64180aa3"';
const ORDER_ID = 'an order id, as a number or a string of its digits, e.g. 42 or "42"';
const SAVE_ITEM = { order: {}, signature: '0x00', orderbookId: 1, type: 'LIMIT' };
const { type: _type, ...WITHOUT_TYPE } = REQUEST;

type Case = readonly [method: 'GET' | 'POST', url: string, payload: unknown, message: string];

const WORDS: readonly Case[] = [
  [
    'POST',
    '/orders/build',
    { orderRequests: [{ ...REQUEST, inputAmount: '1.5' }] },
    `body.orderRequests[0].inputAmount must be ${TOKEN_UNITS_FORM}`,
  ],
  ['POST', '/orders/build', [{ ...REQUEST, outputAmount: 250000 }], `body[0].outputAmount must be ${TOKEN_UNITS_FORM}`],
  ['POST', '/orders/build', [], 'body must be a list of 1 to 250 order requests'],
  ['POST', '/orders/build', { orderRequests: [] }, 'body.orderRequests must be a list of 1 to 250 order requests'],
  ['POST', '/orders/build', 5, 'body must be an object {"orderRequests": [...]} or a list of 1 to 250 order requests'],
  [
    'POST',
    '/orders/build',
    { orderRequests: [REQUEST], extra: 1 },
    'body has an unknown field "extra"; its fields are orderRequests',
  ],
  [
    'POST',
    '/orders/build',
    [{ ...REQUEST, makerOnyl: true }],
    `body[0] has an unknown field "makerOnyl"; its fields are ${REQUEST_FIELDS}`,
  ],
  ['POST', '/orders/build', { orderRequests: [WITHOUT_TYPE] }, 'body.orderRequests[0].type is required: LIMIT or MARKET'],
  ['POST', '/orders/build', [{ ...REQUEST, type: 'STOP' }], 'body[0].type must be LIMIT or MARKET'],
  ['POST', '/orders/build', [{ ...REQUEST, inputToken: '0x12' }], `body[0].inputToken must be ${ADDRESS}`],
  [
    'POST',
    '/orders/build',
    [{ ...REQUEST, orderbookId: 0 }],
    'body[0].orderbookId must be an order book id, as a number or a string of its digits, e.g. 1 or "1"',
  ],
  [
    'POST',
    '/orders/build',
    [{ ...REQUEST, deadline: -5 }],
    'body[0].deadline must be unix seconds, as a number or a string of digits, e.g. 1767225600',
  ],
  ['POST', '/orders/build', [{ ...REQUEST, makerOnly: 'yes' }], 'body[0].makerOnly must be true, false, 0 or 1'],
  ['POST', '/orders/save', {}, 'body.items is required'],
  [
    'POST',
    '/orders/save',
    { items: [{ ...SAVE_ITEM, signature: `0x${'a'.repeat(300)}` }] },
    'body.items[0].signature must be at most 200 characters long',
  ],
  [
    'POST',
    '/orders/save',
    { items: [SAVE_ITEM], ocoLinks: [{ a: 0, b: 300 }] },
    'body.ocoLinks[0].b must be an integer from 0 to 249',
  ],
  [
    'POST',
    '/orders/save',
    { items: [{ ...SAVE_ITEM, selfTradePrevention: 'NONE' }] },
    'body.items[0].selfTradePrevention must be EXPIRE_MAKER, EXPIRE_TAKER or EXPIRE_BOTH',
  ],
  ['POST', '/cancel', { orderIds: ['01'] }, `body.orderIds[0] must be ${ORDER_ID}`],
  ['POST', '/cancel', { orderIds: [1.5] }, `body.orderIds[0] must be ${ORDER_ID}`],
  ['POST', '/cancel', { orderIds: [] }, 'body.orderIds must hold from 1 to 500 items'],
  ['POST', '/cancel', {}, 'body.orderIds is required'],
  ['POST', '/cancel/all', { nonceFloor: 7 }, `body.nonceFloor must be ${PLAIN_INTEGER_FORM}`],
  [
    'POST',
    '/cancel/after',
    { timeoutSeconds: 100_000 },
    'body.timeoutSeconds must be a whole number of seconds from 0 to 86400 (0 disarms the switch), as a number or a string of digits, e.g. 60',
  ],
  ['POST', '/auth/verify', { accountId: '0.0.5' }, 'body.signature is required'],
  ['GET', '/orders?status=ACTIVE&status=FILLED', undefined, 'query.status must be given once'],
  ['GET', '/orders/1/history?limit=1&limit=2', undefined, 'query.limit must be given once'],
  ['GET', `/depth/${'9'.repeat(70)}`, undefined, 'path.orderbookId must be at most 64 characters long'],
];

/** More bad requests, over the order routes and the query routes, for what no message may hold. */
const MORE_BAD: readonly (readonly [method: 'GET' | 'POST', url: string, payload: unknown])[] = [
  ['POST', '/orders/build', null],
  ['POST', '/orders/build', { orderRequests: 'x' }],
  ['POST', '/orders/build', [5]],
  ['POST', '/orders/build', [{ ...REQUEST, orderbookId: true }]],
  ['POST', '/orders/build', [{ ...REQUEST, orderbookId: 'x'.repeat(30) }]],
  ['POST', '/orders/build', { orderRequests: [{ ...REQUEST, recipient: 'alice' }] }],
  ['POST', '/orders/build', { orderRequests: [{ ...REQUEST, inputAmount: '-1' }] }],
  ['POST', '/orders/build', { orderRequests: [{ ...REQUEST, inputAmount: '1'.repeat(79) }] }],
  ['POST', '/orders/save', { items: [] }],
  ['POST', '/orders/save', { items: [{ ...SAVE_ITEM, signature: 5 }] }],
  ['POST', '/orders/save', { items: [{ ...SAVE_ITEM, orderbookId: -1 }] }],
  ['POST', '/orders/save', { items: [SAVE_ITEM], ocoLinks: [{ a: 0 }] }],
  ['POST', '/cancel', { orderIds: 'x' }],
  ['POST', '/cancel', { orderIds: [0] }],
  ['POST', '/cancel', { orderIds: [1], all: true }],
  ['POST', '/cancel/all', { nonceFloor: '01' }],
  ['POST', '/cancel/after', { timeoutSeconds: '1e3' }],
  ['POST', '/cancel/after', { timeoutSeconds: -1 }],
  ['GET', '/orders?page=1&page=2', undefined],
  ['GET', '/orders?orderbookId=1&orderbookId=2', undefined],
  ['GET', '/fees/1?side=maker&side=taker', undefined],
  ['GET', `/books/${'1'.repeat(65)}/candles?interval=HOUR`, undefined],
];

/** What a message about a field must never hold: a regular expression, a union's summary, JSON pointers, Ajv's own words. */
const NOISE = /[\^$]|anyOf|oneOf|pattern|must match|must NOT|\/[A-Za-z0-9]+\/|should/;

/** How many statements a message makes about fields. */
function statements(message: string): number {
  return message.match(/ must | is required| has an unknown field /g)?.length ?? 0;
}

async function refusal(method: 'GET' | 'POST', url: string, payload: unknown) {
  return trader.request<{ error: string; code: string }>(method, url, payload);
}

describe('a request its route schema refuses', () => {
  it.each(WORDS)('%s %s %j answers "%s"', async (method, url, payload, message) => {
    const answer = await refusal(method, url, payload);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: message, code: 'VALIDATION_FAILED' });
  });

  it('never shows a regular expression or a union summary, and says one thing about one field', async () => {
    for (const [method, url, payload] of [...WORDS, ...MORE_BAD]) {
      const answer = await refusal(method, url, payload);
      const context = `${method} ${url} ${JSON.stringify(payload)}: ${answer.body.error}`;
      expect(answer.status, context).toBe(400);
      expect(answer.body.code, context).toBe('VALIDATION_FAILED');
      expect(answer.body.error, context).toMatch(/^(body|query|path)[.[ ]/);
      expect(answer.body.error, context).not.toMatch(NOISE);
      expect(statements(answer.body.error), context).toBe(1);
    }
  });

  it('names the amount field and its form for any amount that is not a raw integer string, in either body shape', async () => {
    const badAmount = fc.oneof(
      fc.string().filter((text) => !/^(0|[1-9][0-9]{0,77})$/.test(text)),
      fc.stringMatching(/^-?[0-9]{1,3}(\.[0-9]{1,3})?(e[0-9])?$/).filter((text) => !/^(0|[1-9][0-9]*)$/.test(text)),
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.nat(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.nat(), { maxKeys: 2 }),
    );
    const field = fc.constantFrom('inputAmount', 'outputAmount');
    await fc.assert(
      fc.asyncProperty(badAmount, field, fc.boolean(), async (amount, name, wrapped) => {
        const request = { ...REQUEST, [name]: amount };
        const answer = await refusal('POST', '/orders/build', wrapped ? { orderRequests: [request] } : [request]);
        const path = wrapped ? `body.orderRequests[0].${name}` : `body[0].${name}`;
        expect(answer.body).toEqual({ error: `${path} must be ${TOKEN_UNITS_FORM}`, code: 'VALIDATION_FAILED' });
        expect(answer.body.error).not.toMatch(/[\^$]/);
      }),
      { numRuns: 150 },
    );
  });
});

/** A JSON schema of the OpenAPI document, as far as the walk below reads it. */
interface DocumentedSchema {
  readonly pattern?: string;
  readonly properties?: Record<string, DocumentedSchema>;
  readonly items?: DocumentedSchema;
  readonly anyOf?: readonly DocumentedSchema[];
  readonly [FORM]?: string;
}

/** The paths of the schema's patterned parts that no form covers (their own, or their union's). */
function formless(schema: DocumentedSchema | undefined, at: string, covered = false): string[] {
  if (schema === undefined) return [];
  const hasForm = covered || typeof schema[FORM] === 'string';
  const parts: [string, DocumentedSchema | undefined][] = [
    ...Object.entries(schema.properties ?? {}).map(([name, child]): [string, DocumentedSchema] => [`${at}.${name}`, child]),
    [`${at}[]`, schema.items],
  ];
  return [
    ...(schema.pattern !== undefined && !hasForm ? [at] : []),
    ...parts.flatMap(([path, child]) => formless(child, path)),
    ...(schema.anyOf ?? []).flatMap((branch) => formless(branch, at, hasForm)),
  ];
}

describe('the request schemas', () => {
  it('give every patterned field of every documented request a form in words', async () => {
    const document = (await h.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { name: string; schema?: DocumentedSchema }[];
            requestBody?: { content?: Record<string, { schema?: DocumentedSchema }> };
          }
        >
      >;
    };
    const missing = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => [
        ...(operation.parameters ?? []).flatMap((parameter) => formless(parameter.schema, `${method} ${path} ${parameter.name}`)),
        ...formless(operation.requestBody?.content?.['application/json']?.schema, `${method} ${path} body`),
      ]),
    );
    expect(missing).toEqual([]);
    // The walk sees the forms: the document carries them.
    expect(JSON.stringify(document)).toContain(TOKEN_UNITS_FORM.replaceAll('"', '\\"'));
  });
});
