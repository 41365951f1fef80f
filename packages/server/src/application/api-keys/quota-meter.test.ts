import { beforeEach, describe, expect, it } from 'vitest';
import { LocalQuotaCounters } from '../../adapters/memory/local-quota-counters.js';
import { RedisQuotaCounters } from '../../adapters/redis/redis-quota-counters.js';
import { createLogger } from '../../composition/logging.js';
import type { ApiKeyRecord } from '../../domain/data-api/api-key.js';
import type { QuotaCounters } from '../../ports/quota-counters.js';
import type { ApiKeyStore } from '../../ports/store/api-key-ports.js';
import type { Store } from '../../ports/store/ports.js';
import { ManualClock } from '../../test-support/manual-clock.js';
import { REDIS_AVAILABLE, useTestRedis } from '../../test-support/redis.js';
import { useTempStores } from '../../test-support/temp-stores.js';
import { QuotaMeter } from './quota-meter.js';

const NOVEMBER = Date.UTC(2026, 10, 1);
const DECEMBER = Date.UTC(2026, 11, 1);

const stores = useTempStores();
let store: Store;
let key: ApiKeyRecord;
let clock = new ManualClock();
const logger = createLogger('silent');

beforeEach(async () => {
  clock = new ManualClock();
  store = await stores.open();
  key = await store.apiKeys.insert(
    { keyHash: 'f'.repeat(64), name: 'k', monthlyQuota: 2, overageAllowed: false, environment: 'devnet' },
    clock.now(),
  );
});

/** The store, but for its writes of counts, which `write` makes instead. */
function storeWriting(write: ApiKeyStore['addRequests']): ApiKeyStore {
  return Object.assign(Object.create(store.apiKeys) as ApiKeyStore, { addRequests: write });
}

/** The store, whose writes of counts wait until released, then all fail or all go through. */
function holdingWrites(): { store: ApiKeyStore; started: Promise<void>; release: (outcome: 'fail' | 'store') => void } {
  let started: () => void = () => {};
  let release: (outcome: 'fail' | 'store') => void = () => {};
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const released = new Promise<'fail' | 'store'>((resolve) => {
    release = resolve;
  });
  const held = storeWriting(async (counts) => {
    started();
    if ((await released) === 'fail') throw new Error('disk full');
    return store.apiKeys.addRequests(counts);
  });
  return { store: held, started: startedPromise, release };
}

/** The meter's behaviour with either kind of counters: `counters` makes the counters of one gateway. */
function meterContract(counters: () => QuotaCounters): void {
  it('admits up to the quota, refuses past it, and has stored every admitted request when it answers', async () => {
    const meter = new QuotaMeter(store.apiKeys, clock, logger, counters());
    const verdicts = await Promise.all([meter.admit(key), meter.admit(key), meter.admit(key)]);
    expect(verdicts).toEqual([
      { admitted: true, limit: 2, remaining: 1, additionalTotal: 0, resetMs: DECEMBER },
      { admitted: true, limit: 2, remaining: 0, additionalTotal: 0, resetMs: DECEMBER },
      { admitted: false, limit: 2, remaining: 0, additionalTotal: 0, resetMs: DECEMBER },
    ]);
    expect(await store.apiKeys.requests(key.id, NOVEMBER)).toBe(2);
    expect(await meter.peek(key)).toEqual({ limit: 2, remaining: 0, additionalTotal: 0, resetMs: DECEMBER });
  });

  it('stores one commit at a time: the requests admitted while one is stored share the next', async () => {
    const held = holdingWrites();
    const writes: number[] = [];
    const counting = storeWriting(async (counts) => {
      writes.push(counts.reduce((sum, count) => sum + count.requests, 0));
      return held.store.addRequests(counts);
    });
    const overage = await store.apiKeys.insert(
      { keyHash: 'e'.repeat(64), name: 'o', monthlyQuota: 100, overageAllowed: true, environment: 'devnet' },
      clock.now(),
    );
    const meter = new QuotaMeter(counting, clock, logger, counters());
    const first = meter.admit(overage);
    await held.started;
    const later = Array.from({ length: 5 }, () => meter.admit(overage));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writes).toEqual([1]);
    held.release('store');
    await Promise.all([first, ...later]);
    expect(writes).toEqual([1, 5]);
    expect(await store.apiKeys.requests(overage.id, NOVEMBER)).toBe(6);
  });

  it('continues from the stored count, as after a restart', async () => {
    await store.apiKeys.addRequests([{ keyId: key.id, monthStart: NOVEMBER, requests: 1 }]);
    const meter = new QuotaMeter(store.apiKeys, clock, logger, counters());
    expect(await meter.admit(key)).toMatchObject({ admitted: true, remaining: 0 });
    expect(await meter.admit(key)).toMatchObject({ admitted: false });
  });

  it('counts past the quota as additional for a key with overage', async () => {
    const overage = await store.apiKeys.insert(
      { keyHash: 'e'.repeat(64), name: 'o', monthlyQuota: 1, overageAllowed: true, environment: 'devnet' },
      clock.now(),
    );
    const meter = new QuotaMeter(store.apiKeys, clock, logger, counters());
    await Promise.all([meter.admit(overage), meter.admit(overage), meter.admit(overage)]);
    expect(await meter.peek(overage)).toMatchObject({ remaining: 0, additionalTotal: 2 });
    expect(await store.apiKeys.requests(overage.id, NOVEMBER)).toBe(3);
  });

  it('answers USAGE_UNAVAILABLE and takes the counts back when they cannot be stored', async () => {
    let failing = true;
    const flaky = storeWriting(async (counts) => {
      if (failing) throw new Error('disk full');
      return store.apiKeys.addRequests(counts);
    });
    const meter = new QuotaMeter(flaky, clock, logger, counters());
    await expect(meter.admit(key)).rejects.toMatchObject({ code: 'USAGE_UNAVAILABLE', status: 503 });
    failing = false;
    expect(await meter.admit(key)).toMatchObject({ admitted: true, remaining: 1 });
    expect(await store.apiKeys.requests(key.id, NOVEMBER)).toBe(1);
  });

  it('starts the count again from the store when a new month begins', async () => {
    const meter = new QuotaMeter(store.apiKeys, clock, logger, counters());
    await meter.admit(key);
    await meter.admit(key);
    clock.time = DECEMBER + 1;
    expect(await meter.admit(key)).toMatchObject({ admitted: true, remaining: 1, resetMs: Date.UTC(2027, 0, 1) });
    expect(await store.apiKeys.usage(key.id)).toEqual([
      { keyId: key.id, monthStart: NOVEMBER, requests: 2 },
      { keyId: key.id, monthStart: DECEMBER, requests: 1 },
    ]);
  });
}

describe("QuotaMeter on one process's counters", () => {
  meterContract(() => new LocalQuotaCounters());
});

describe.skipIf(!REDIS_AVAILABLE)('QuotaMeter on Redis, shared by gateways', () => {
  const redis = useTestRedis();
  const counters = () => new RedisQuotaCounters(redis.redis(), redis.prefix());
  meterContract(counters);

  it('sends the takes of one key that arrive while a call is on its way together: fewer script calls than requests', async () => {
    const connection = redis.redis() as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const meter = new QuotaMeter(store.apiKeys, clock, logger, counters());
    const take = connection.quotaTake as (...args: unknown[]) => Promise<unknown>;
    let calls = 0;
    connection.quotaTake = (...args: unknown[]) => {
      calls++;
      return take.apply(connection, args);
    };
    const overage = await store.apiKeys.insert(
      { keyHash: 'c'.repeat(64), name: 'burst', monthlyQuota: 10, overageAllowed: true, environment: 'devnet' },
      clock.now(),
    );
    const verdicts = await Promise.all(Array.from({ length: 200 }, () => meter.admit(overage)));
    expect(verdicts.every((verdict) => verdict.admitted)).toBe(true);
    // Counts 1 to 200: the first 10 within the quota, the rest each its own additional one.
    expect(new Set(verdicts.map((verdict) => verdict.additionalTotal)).size).toBe(191);
    expect(calls).toBeLessThan(20);
  });

  it('admits exactly the quota of 2,000 concurrent requests spread over two gateways, and stores each admitted one', async () => {
    const big = await store.apiKeys.insert(
      { keyHash: 'a'.repeat(64), name: 'big', monthlyQuota: 1_500, overageAllowed: false, environment: 'devnet' },
      clock.now(),
    );
    const gateways = [
      new QuotaMeter(store.apiKeys, clock, logger, counters()),
      new QuotaMeter(store.apiKeys, clock, logger, counters()),
    ];
    const verdicts = await Promise.all(Array.from({ length: 2_000 }, (_, i) => (gateways[i % 2] as QuotaMeter).admit(big)));
    expect(verdicts.filter((verdict) => verdict.admitted)).toHaveLength(1_500);
    // Each admitted request saw its own count: no two were given the same unit.
    expect(new Set(verdicts.filter((verdict) => verdict.admitted).map((verdict) => verdict.remaining)).size).toBe(1_500);
    expect(await store.apiKeys.requests(big.id, NOVEMBER)).toBe(1_500);
  });

  it('continues exactly from the store after Redis lost its counts; a count given back from before takes nothing', async () => {
    await new QuotaMeter(store.apiKeys, clock, logger, counters()).admit(key);
    const held = holdingWrites();
    const failing = new QuotaMeter(held.store, clock, logger, counters());
    const refused = failing.admit(key);
    await held.started;
    // Redis restarts while that count is being stored; another gateway seeds the count anew.
    await redis.forget();
    const other = new QuotaMeter(store.apiKeys, clock, logger, counters());
    expect(await other.admit(key)).toMatchObject({ admitted: true, remaining: 0 });
    held.release('fail');
    await expect(refused).rejects.toMatchObject({ code: 'USAGE_UNAVAILABLE' });
    // The failed count belonged to the lost counts: the new one keeps the quota used up.
    expect(await other.admit(key)).toMatchObject({ admitted: false, remaining: 0 });
    expect(await store.apiKeys.requests(key.id, NOVEMBER)).toBe(2);
  });

  it('raises a count seeded while a commit was on its way to the total that commit reached', async () => {
    const big = await store.apiKeys.insert(
      { keyHash: 'b'.repeat(64), name: 'slow', monthlyQuota: 10, overageAllowed: false, environment: 'devnet' },
      clock.now(),
    );
    await new QuotaMeter(store.apiKeys, clock, logger, counters()).admit(big);
    const held = holdingWrites();
    const first = new QuotaMeter(held.store, clock, logger, counters());
    const pending = Promise.all([first.admit(big), first.admit(big), first.admit(big)]);
    await held.started;
    // Redis restarts; another gateway seeds the count from the store, which lacks the three.
    await redis.forget();
    const second = new QuotaMeter(store.apiKeys, clock, logger, counters());
    expect(await second.admit(big)).toMatchObject({ admitted: true, remaining: 8 });
    held.release('store');
    await pending;
    expect(await store.apiKeys.requests(big.id, NOVEMBER)).toBe(5);
    expect(await second.peek(big)).toMatchObject({ remaining: 5 });
  });

  it('answers USAGE_UNAVAILABLE while its connection to Redis is down, counting nothing', async () => {
    const down = redis.redis().duplicate({ lazyConnect: true, enableOfflineQueue: false });
    const meter = new QuotaMeter(store.apiKeys, clock, logger, new RedisQuotaCounters(down, redis.prefix()));
    await expect(meter.admit(key)).rejects.toMatchObject({ code: 'USAGE_UNAVAILABLE', status: 503 });
    await expect(meter.peek(key)).rejects.toMatchObject({ code: 'USAGE_UNAVAILABLE' });
    expect(await store.apiKeys.requests(key.id, NOVEMBER)).toBe(0);
    down.disconnect();
  });
});
