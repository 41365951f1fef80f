import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader, WHBAR_SELL_REQUEST } from '../../test-support/harness.js';

/** Schema failures of any route, as a client reads them: the field, and what it takes, in words. */

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

describe('a request its route schema refuses', () => {
  it.each([
    ['/cancel', { orderIds: [1.5] }, 'orderIds[0] must be an integer or a string'],
    ['/cancel', { orderIds: ['01'] }, 'orderIds[0] must be an integer or the digits of an order id'],
    ['/cancel', { orderIds: [] }, 'orderIds must hold at least 1 item'],
    ['/cancel', {}, 'body must have the field orderIds'],
    ['/orders/build', {}, 'body must have the field orderRequests or be a list'],
    [
      '/orders/build',
      { orderRequests: [{ ...REQUEST, makerOnyl: true }] },
      'orderRequests[0] must not have the field "makerOnyl"',
    ],
    [
      '/orders/build',
      { orderRequests: [{ ...REQUEST, inputToken: '0x12' }] },
      'orderRequests[0].inputToken must be a 0x-prefixed EVM address of 40 hex digits',
    ],
    ['/orders/build', { orderRequests: [{ ...REQUEST, type: 'STOP' }] }, 'orderRequests[0].type must be "LIMIT" or "MARKET"'],
  ])('POST %s %j: "%s"', async (url, payload, message) => {
    const answer = await trader.request<{ error: string; code: string }>('POST', url, payload);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.stringContaining(message), code: 'VALIDATION_FAILED' });
    expect(answer.body.error).not.toMatch(/anyOf|pattern|\/orderRequests\//);
  });
});
