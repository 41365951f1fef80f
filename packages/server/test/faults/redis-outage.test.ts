import { describe, expect, it } from 'vitest';
import { expectStorageRefusal } from '../../src/test-support/fault-replies.js';
import { dataGet, issueApiKey, startHarness, until } from '../../src/test-support/harness.js';
import { forgetKeys, REDIS_AVAILABLE, REDIS_TEST_URL, testKeyPrefix } from '../../src/test-support/redis.js';
import { startTcpProxy } from '../../src/test-support/tcp-proxy.js';

/**
 * Fault suite: the data API's quota counters are in a Redis reached through a TCP proxy that the
 * test cuts, and the counters are deleted meanwhile, as a restart of a Redis that keeps nothing on
 * disk looks to the service. Bound: one test of at most 30 s. Skipped with a notice where no Redis
 * answers.
 */
const QUOTA = 5;

describe.skipIf(!REDIS_AVAILABLE)('a restart of Redis', () => {
  it('answers 503 with the common error body meanwhile, then counts on exactly from the store', async () => {
    const target = new URL(REDIS_TEST_URL);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    target.host = `127.0.0.1:${proxy.port}`;
    const prefix = testKeyPrefix();
    const h = await startHarness({ REDIS_URL: target.toString(), REDIS_KEY_PREFIX: prefix });
    try {
      expect((await h.app.inject({ url: '/ready' })).json()).toEqual({ status: 'ready', dependencies: ['store', 'redis'] });
      const { id, key } = await issueApiKey(h, QUOTA);
      expect((await dataGet(h, '/tokens', key)).headers['x-ratelimit-remaining']).toBe('4');
      expect((await dataGet(h, '/tokens', key)).headers['x-ratelimit-remaining']).toBe('3');

      await proxy.cut();
      await forgetKeys(prefix);
      const refused = await dataGet(h, '/tokens', key);
      expectStorageRefusal({ status: refused.status, body: refused.body }, ['USAGE_UNAVAILABLE']);
      const ready = await h.app.inject({ url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ code: 'NOT_READY', error: expect.stringContaining('redis') });
      expect((await h.app.inject({ url: '/health' })).statusCode).toBe(200);

      await proxy.restore();
      // Seeded again from the store's count of the two answered requests.
      const first = await until(
        async () => {
          const reply = await dataGet(h, '/tokens', key);
          return reply.status === 200 ? reply : undefined;
        },
        'the data API to answer again',
        10_000,
      );
      expect(first.headers['x-ratelimit-remaining']).toBe('2');
      const rest = await Promise.all([1, 2, 3].map(() => dataGet(h, '/tokens', key)));
      expect(rest.map((reply) => reply.status).sort()).toEqual([200, 200, 429]);
      expect(await h.services.store.apiKeys.requests(id, Date.UTC(2026, 10, 1))).toBe(QUOTA);
    } finally {
      await h.close();
      await proxy.close();
      await forgetKeys(prefix);
    }
  }, 30_000);
});
