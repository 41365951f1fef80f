import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { BUY, SELL } from '@dex/core';
import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage, UserEventMessage } from '../../../edges/ws/protocol.js';
import { fund } from '../../../test-support/funded-trader.js';
import { type Harness, ManualClock, startHarness, Trader, until } from '../../../test-support/harness.js';
import { StreamClient, streamUrl } from '../../../test-support/stream-client.js';

/** Confirmation on the devnet takes a few blocks; the stream's own wait is far shorter. */
const FINAL_MS = 60_000;

let harness: Harness;
const clients: StreamClient[] = [];

beforeAll(async () => {
  harness = await startHarness({ CHAIN: 'devnet' }, { listen: true, clock: new ManualClock(Date.now()) });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await harness?.close();
});

async function userEvents(trader: Trader): Promise<StreamClient> {
  const client = await StreamClient.open(streamUrl(harness.url, 'user-events', { token: trader.token }));
  clients.push(client);
  return client;
}

/** The final ORDER_CANCELED of an order on the stream. */
function canceled(stream: StreamClient, orderId: number): Promise<UserEventMessage> {
  return stream.waitFor(
    (message: ServerMessage): message is UserEventMessage =>
      message.type === 'ORDER_CANCELED' && message.orderId === String(orderId),
    FINAL_MS,
  );
}

describe('automatic cancellations on the devnet chain', () => {
  it('makes the orders of a dead-man switch that fired final on the reactor, nonce floor included', async () => {
    const maker = await fund(harness, await Trader.secp256k1(harness));
    const orders = await maker.place([maker.limitRequest(1, SELL, 29_000, 10), maker.limitRequest(2, BUY, 50_000, 10)]);
    const stream = await userEvents(maker);
    expect((await maker.request('POST', '/cancel/after', { timeoutSeconds: 5 })).status).toBe(200);
    harness.clock.advance(5_000);
    await harness.services.cancelAfter.fireDue();

    for (const order of orders) {
      expect(await canceled(stream, order.id)).toMatchObject({
        status: 'CANCELED',
        reason: 'CANCEL_AFTER',
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
    }
    const floor = (await harness.services.store.nonces.lastIssued(maker.account)) + 1n;
    const { chain } = harness.services.settlement ?? {};
    if (chain === undefined) throw new Error('settlement is off');
    await until(async () => {
      const onChain = await chain.public.readContract({
        address: chain.reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'nonceFloor',
        args: [getAddress(maker.swapper)],
      });
      return onChain === floor ? onChain : undefined;
    }, 'the floor on the reactor');
  });

  it('makes the orders of a lost cancel-on-disconnect stream final on the reactor', async () => {
    const maker = await fund(harness, await Trader.secp256k1(harness));
    const order = await maker.limit(1, SELL, 29_500, 10);
    const stream = await userEvents(maker);
    const armed = await StreamClient.open(
      streamUrl(harness.url, 'user-events', { token: maker.token, books: '1', cancelOnDisconnect: 'true' }),
    );
    armed.socket.terminate();
    expect(await canceled(stream, order.id)).toMatchObject({
      status: 'CANCELED',
      reason: 'DISCONNECT',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
  });
});
