import { generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { InvalidParameterError } from '../errors.js';
import type { OrderRequest } from '../order-types.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { recordingFetch } from '../test-support/server.js';
import { buildOrders } from './build-orders.js';

const request = (deadline: number | string): OrderRequest => ({
  orderbookId: 1,
  type: 'LIMIT',
  inputToken: '0x00000000000000000000000000000000000003e9',
  inputAmount: '100000000',
  outputToken: '0x00000000000000000000000000000000000003ea',
  outputAmount: '250000',
  deadline,
});

describe('buildOrders', () => {
  const now = (): number => Math.floor(Date.now() / 1000);

  it.each<[string, () => number | string, string]>([
    ['in the past', () => now() - 1, 'has passed'],
    ['now', () => now(), 'has passed'],
    ['under 30 s away', () => now() + 10, 'is too soon: at least 30 seconds from now'],
    ['over 90 days away', () => now() + 91 * 86_400, 'is more than 90 days from now'],
    ['in milliseconds', () => Date.now() + 600_000, 'looks like milliseconds'],
    ['not a number', () => 'soon', 'must be unix seconds'],
  ])('refuses a deadline %s, saying which, before anything is sent', async (_name, deadline, words) => {
    const recorder = recordingFetch();
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9',
      fetch: recorder.fetch,
      signer: secp256k1Signer(generatePrivateKey()),
    });
    const refusal = await buildOrders(client, { orders: [request(now() + 600), request(deadline())] }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(InvalidParameterError);
    expect(refusal).toMatchObject({ parameter: 'orders[1].deadline', message: expect.stringContaining(words) });
    expect(recorder.urls).toEqual([]);
  });
});
