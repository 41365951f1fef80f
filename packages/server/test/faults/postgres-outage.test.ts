import { BUY, SELL } from '@dex/core';
import { describe, expect, it } from 'vitest';
import { expectStorageRefusal, ordersOf } from '../../src/test-support/fault-replies.js';
import { dataGet, issueApiKey, startHarness, Trader, until } from '../../src/test-support/harness.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../src/test-support/store-engines.js';
import { startTcpProxy } from '../../src/test-support/tcp-proxy.js';

/**
 * Fault suite: the service's store is a PostgreSQL database reached through a TCP proxy that the
 * test cuts for 10 s while it trades, as a network partition or a server restart looks to it.
 * Bound: one test of at most 60 s. Skipped with a notice where no PostgreSQL answers.
 */
const OUTAGE_MS = 10_000;
/** Every refusal a store out of reach can give. */
const STORAGE_CODES = ['TRADING_UNAVAILABLE', 'STORAGE_UNAVAILABLE', 'USAGE_UNAVAILABLE'];

describe.skipIf(!POSTGRES_AVAILABLE)('PostgreSQL out of reach for 10 s', () => {
  const database = usePostgresDatabase('all', 'outage_test');

  it('answers 503 with the common error body meanwhile, keeps every acknowledged order, and recovers by itself', async () => {
    const target = new URL(database.url());
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    target.host = `127.0.0.1:${proxy.port}`;
    const h = await startHarness({ DATABASE_URL: target.toString() });
    try {
      const maker = await Trader.secp256k1(h);
      const taker = await Trader.secp256k1(h);
      const { key } = await issueApiKey(h, 1_000);
      const ask = await maker.limit(1, SELL, 30_000, 10);
      const bid = await maker.limit(1, BUY, 20_000, 10);
      const crossing = await taker.build([taker.limitRequest(1, BUY, 30_000, 10)]);
      const depthBefore = (await h.app.inject({ method: 'GET', url: '/depth/1' })).json();

      await proxy.cut();
      const cutAt = Date.now();
      // A crossing save matches in memory, its commit fails: refused, and the match undone.
      expectStorageRefusal(await taker.save(crossing), STORAGE_CODES);
      expectStorageRefusal(
        await maker.request('POST', '/orders/build', { orderRequests: [maker.limitRequest(1, SELL, 40_000, 10)] }),
        STORAGE_CODES,
      );
      expectStorageRefusal(await maker.request('POST', '/cancel', { orderIds: [bid.id] }), STORAGE_CODES);
      const usage = await dataGet(h, '/tokens', key);
      expectStorageRefusal({ status: usage.status, body: usage.body as Record<string, unknown> }, STORAGE_CODES);
      expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expect((await h.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);
      // The cancel ran on the books and was not stored: they are not read until rebuilt from the store.
      const depth = await h.app.inject({ method: 'GET', url: '/depth/1' });
      expectStorageRefusal({ status: depth.statusCode, body: depth.json() }, STORAGE_CODES);
      expect((await h.app.inject({ method: 'GET', url: '/books' })).statusCode).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - cutAt))));
      expectStorageRefusal(await taker.save(crossing), STORAGE_CODES);

      await proxy.restore();
      // Rebuilt from the store by itself: the bid whose cancel was refused rests again.
      const rebuilt = await until(
        async () => {
          const reply = await h.app.inject({ method: 'GET', url: '/depth/1' });
          return reply.statusCode === 200 ? reply.json() : undefined;
        },
        'the books rebuilt from the store',

        15_000,
        200,
      );
      expect(rebuilt).toEqual(depthBefore);
      const filled = await until(
        async () => {
          const reply = await taker.save(crossing);
          return reply.status === 200 ? Number(reply.body.orders[0]?.meta.id) : undefined;
        },
        'a save once the store answers again',
        15_000,
        200,
      );
      expect((await ordersOf(taker)).get(filled)).toBe('FILLED');
      expect((await ordersOf(maker)).get(ask.id)).toBe('FILLED');
      expect((await maker.request('POST', '/cancel', { orderIds: [bid.id] })).status).toBe(202);
      expect((await dataGet(h, '/tokens', key)).status).toBe(200);
      expect((await h.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);

      const stored = await ordersOf(maker);
      await h.restart();
      expect(await ordersOf(maker)).toEqual(stored);
    } finally {
      await h.close();
      await proxy.close();
    }
  }, 60_000);
});
