import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVNET_ADDRESS, type Harness, startHarness, Trader, WHBAR_SELL_REQUEST, wireOf } from '../src/test-support/harness.js';

/**
 * Every raw integer field of every route, sent as a decimal, a JSON number or a signed value:
 * a 400 in the common error body that names the field and says in words which form it takes,
 * with an example, never a regular expression or a union's summary.
 */

let h: Harness;
let trader: Trader;
const REQUEST = WHBAR_SELL_REQUEST;
let savable: Record<string, unknown>;

beforeAll(async () => {
  h = await startHarness();
  trader = await Trader.secp256k1(h);
  const [built] = await trader.build([REQUEST as never]);
  if (built === undefined) throw new Error('nothing built');
  savable = { order: wireOf(built), signature: await trader.signOrder(built), orderbookId: 1, type: 'LIMIT' };
});

afterAll(async () => {
  await h?.close();
});

const TOKEN_UNITS = `must be an integer in the token's smallest units, as a string, e.g. "2500000" for 2.5 USDC`;
const DIGITS = 'must be a non-negative integer as a string of digits, e.g. "1757000000412345"';

/** A route, the field a client got wrong (as the message names it), and the request with `value` in it. */
type Case = readonly [
  route: string,
  field: string,
  expected: string,
  request: (value: unknown) => { method: 'GET' | 'POST'; url: string; payload?: unknown },
];

const withOrderField = (path: 'input' | 'output' | 'info', name: string) => (value: unknown) => {
  const order = savable.order as Record<string, Record<string, unknown>>;
  return {
    method: 'POST' as const,
    url: '/orders/save',
    payload: { items: [{ ...savable, order: { ...order, [path]: { ...order[path], [name]: value } } }] },
  };
};

const quote = (side: 'input' | 'output', token: string) => (value: unknown) => ({
  method: 'GET' as const,
  url: `/books/1/quote/exact-${side}?${side}Token=${token}&${side}Amount=${encodeURIComponent(String(value))}`,
});

const CASES: readonly Case[] = [
  [
    'POST /orders/build',
    'body.orderRequests[0].inputAmount',
    TOKEN_UNITS,
    (value) => ({ method: 'POST', url: '/orders/build', payload: { orderRequests: [{ ...REQUEST, inputAmount: value }] } }),
  ],
  [
    'POST /orders/build',
    'body.orderRequests[0].outputAmount',
    TOKEN_UNITS,
    (value) => ({ method: 'POST', url: '/orders/build', payload: { orderRequests: [{ ...REQUEST, outputAmount: value }] } }),
  ],
  [
    'POST /orders/build (a bare list)',
    'body[0].inputAmount',
    TOKEN_UNITS,
    (value) => ({ method: 'POST', url: '/orders/build', payload: [{ ...REQUEST, inputAmount: value }] }),
  ],
  ['POST /orders/save', 'order.input.amount', TOKEN_UNITS, withOrderField('input', 'amount')],
  ['POST /orders/save', 'order.output.amount', TOKEN_UNITS, withOrderField('output', 'amount')],
  ['POST /orders/save', 'order.info.nonce', DIGITS, withOrderField('info', 'nonce')],
  [
    'POST /cancel/all',
    'body.nonceFloor',
    DIGITS,
    (value) => ({ method: 'POST', url: '/cancel/all', payload: { nonceFloor: value } }),
  ],
  ['GET /books/:id/quote/exact-input', 'inputAmount', TOKEN_UNITS, quote('input', DEVNET_ADDRESS.USDC)],
  ['GET /books/:id/quote/exact-output', 'outputAmount', TOKEN_UNITS, quote('output', DEVNET_ADDRESS.WHBAR)],
];

/** What a client sends by mistake: display units, a JSON number, a sign, an exponent. */
const MISTAKES: readonly unknown[] = ['2.5', 2500000, '-5', '1e6', ' 25'];

describe('a raw integer field sent in another form', () => {
  for (const [route, field, expected, request] of CASES) {
    it.each(MISTAKES.filter((value) => !route.startsWith('GET') || typeof value === 'string'))(
      `${route}: ${field} = %j is a 400 that says what ${field} takes`,
      async (value) => {
        const answer = await trader.request<{ error: string; code: string }>(
          request(value).method,
          request(value).url,
          request(value).payload,
        );
        expect(answer.status).toBe(400);
        expect(answer.body.error).toContain(`${field} ${expected}`);
        expect(answer.body.error).not.toMatch(/pattern|anyOf|\^\(|must match/);
        expect(Object.keys(answer.body).sort()).toEqual(
          Object.hasOwn(answer.body, 'index') ? ['code', 'error', 'index'] : ['code', 'error'],
        );
      },
    );
  }
});
