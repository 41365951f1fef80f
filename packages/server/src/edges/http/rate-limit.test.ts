import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalRateBuckets } from '../../adapters/memory/local-rate-buckets.js';
import { ManualClock } from '../../test-support/manual-clock.js';
import { installErrorHandling } from './error-handler.js';
import { bucketPolicies, type RateLimitPolicy, rateLimitHook } from './rate-limit.js';

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

/**
 * A route limited by `policy`; the account comes from an `x-account` header (the order routes read
 * the authenticated principal instead) and a body `{ orders: [...] }` costs its length.
 */
async function limitedApp(policy: RateLimitPolicy, clock: ManualClock): Promise<FastifyInstance> {
  const instance = Fastify();
  installErrorHandling(instance);
  const hook = rateLimitHook(new LocalRateBuckets(bucketPolicies(policy), clock, 100_000), {
    account: (request) => {
      const account = request.headers['x-account'];
      return typeof account === 'string' ? account : undefined;
    },
    cost: (request) => {
      const body = request.body as { orders?: unknown[] } | undefined;
      return body?.orders?.length ?? 1;
    },
  });
  instance.post('/orders', { preHandler: hook }, async () => ({ ok: true }));
  await instance.ready();
  app = instance;
  return instance;
}

function post(instance: FastifyInstance, options: { ip?: string; account?: string; orders?: number } = {}) {
  const headers: Record<string, string> = {};
  if (options.account !== undefined) headers['x-account'] = options.account;
  return instance.inject({
    method: 'POST',
    url: '/orders',
    remoteAddress: options.ip ?? '192.0.2.1',
    headers,
    payload: { orders: Array.from({ length: options.orders ?? 1 }, (_, index) => index) },
  });
}

async function statuses(instance: FastifyInstance, count: number, options: Parameters<typeof post>[1] = {}) {
  const answers: number[] = [];
  for (let index = 0; index < count; index += 1) answers.push((await post(instance, options)).statusCode);
  return answers;
}

describe('rateLimitHook', () => {
  it('answers 429 RATE_LIMITED with Retry-After in whole seconds, rounded up', async () => {
    const clock = new ManualClock();
    const instance = await limitedApp({ perIp: { capacity: 2, refillPerSecond: 0.4 }, perAccount: null }, clock);
    expect(await statuses(instance, 2)).toEqual([200, 200]);
    const refused = await post(instance);
    expect(refused.statusCode).toBe(429);
    // One token at 0.4/s takes 2.5 s.
    expect(refused.headers['retry-after']).toBe('3');
    expect(refused.json()).toEqual({ error: 'Too many requests: retry in 3 s', code: 'RATE_LIMITED' });
    clock.advance(2_499);
    expect((await post(instance)).headers['retry-after']).toBe('1');
    clock.advance(1);
    expect((await post(instance)).statusCode).toBe(200);
  });

  it('keeps one bucket per IP', async () => {
    const clock = new ManualClock();
    const instance = await limitedApp({ perIp: { capacity: 1, refillPerSecond: 1 }, perAccount: null }, clock);
    expect(await statuses(instance, 2, { ip: '192.0.2.1' })).toEqual([200, 429]);
    expect(await statuses(instance, 2, { ip: '192.0.2.2' })).toEqual([200, 429]);
  });

  it('keeps one bucket per account, and only the IP bucket for anonymous callers', async () => {
    const clock = new ManualClock();
    const instance = await limitedApp(
      { perIp: { capacity: 100, refillPerSecond: 1 }, perAccount: { capacity: 2, refillPerSecond: 1 } },
      clock,
    );
    expect(await statuses(instance, 3, { account: 'alice' })).toEqual([200, 200, 429]);
    expect(await statuses(instance, 3, { account: 'bob' })).toEqual([200, 200, 429]);
    expect(await statuses(instance, 3)).toEqual([200, 200, 200]);
  });

  it('charges the IP nothing for a request the account refuses, and the account nothing for one the IP refuses', async () => {
    const clock = new ManualClock();
    const instance = await limitedApp(
      { perIp: { capacity: 3, refillPerSecond: 1 }, perAccount: { capacity: 1, refillPerSecond: 0.1 } },
      clock,
    );
    expect(await statuses(instance, 5, { account: 'alice' })).toEqual([200, 429, 429, 429, 429]);
    // The IP spent one token on alice's one accepted request and has two left.
    expect(await statuses(instance, 3, { account: 'bob' })).toEqual([200, 429, 429]);
    expect(await statuses(instance, 2)).toEqual([200, 429]);
    // The IP refuses carol; had her account paid for it, it would stay empty for 10 s.
    const refused = await post(instance, { account: 'carol' });
    expect(refused.headers['retry-after']).toBe('1');
    clock.advance(1_000);
    expect(await statuses(instance, 2, { account: 'carol' })).toEqual([200, 429]);
  });

  it('waits for the slower of two refusing buckets', async () => {
    const clock = new ManualClock();
    const instance = await limitedApp(
      { perIp: { capacity: 1, refillPerSecond: 0.5 }, perAccount: { capacity: 1, refillPerSecond: 0.1 } },
      clock,
    );
    await post(instance, { account: 'alice' });
    const refused = await post(instance, { account: 'alice' });
    expect(refused.headers['retry-after']).toBe('10');
  });

  it('charges a batch by its cost, and refuses one larger than the burst without Retry-After', async () => {
    const clock = new ManualClock();
    const instance = await limitedApp({ perIp: { capacity: 10, refillPerSecond: 2 }, perAccount: null }, clock);
    expect((await post(instance, { orders: 7 })).statusCode).toBe(200);
    const refused = await post(instance, { orders: 5 });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect((await post(instance, { orders: 3 })).statusCode).toBe(200);
    const tooLarge = await post(instance, { orders: 11 });
    expect(tooLarge.statusCode).toBe(429);
    expect(tooLarge.headers['retry-after']).toBeUndefined();
    expect(tooLarge.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('limits nothing when both dimensions are off', async () => {
    const clock = new ManualClock();
    const instance = await limitedApp({ perIp: null, perAccount: null }, clock);
    expect(await statuses(instance, 20, { account: 'alice', orders: 1_000 })).toEqual(Array(20).fill(200));
  });
});
