import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BucketPolicy } from '../../ports/rate-buckets.js';
import { ManualClock } from '../../test-support/manual-clock.js';
import { REDIS_AVAILABLE, useTestRedis } from '../../test-support/redis.js';
import { LocalRateBuckets } from '../memory/local-rate-buckets.js';
import { RedisRateBuckets } from './redis-rate-buckets.js';

describe.skipIf(!REDIS_AVAILABLE)('RedisRateBuckets', () => {
  const redis = useTestRedis();

  it('holds one limit across gateways: a burst spent at one is spent at the other', async () => {
    const clock = new ManualClock();
    const policies = { ip: { capacity: 3, refillPerSecond: 1 } };
    const [first, second] = [0, 1].map(() => new RedisRateBuckets(redis.redis(), redis.prefix(), policies, clock)) as [
      RedisRateBuckets,
      RedisRateBuckets,
    ];
    const ip = [{ dimension: 'ip', key: '192.0.2.1' }];
    expect([await first.take(ip, 2), await second.take(ip, 1), await second.take(ip, 1)]).toEqual([0, 0, 1_000]);
    clock.advance(1_000);
    expect(await first.take(ip, 1)).toBe(0);
    expect(await first.take(ip, 4)).toBe(Number.POSITIVE_INFINITY);
  });

  const policy = fc.record({
    capacity: fc.integer({ min: 1, max: 5 }),
    refillPerSecond: fc.integer({ min: 1, max: 3_000 }).map((thousandths) => thousandths / 1_000),
  });
  const step = fc.oneof(
    fc.record({
      kind: fc.constant('take' as const),
      ip: fc.nat(2),
      account: fc.option(fc.nat(2)),
      cost: fc.integer({ min: 0, max: 6 }),
    }),
    fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: -50, max: 4_000 }) }),
  );

  it('answers as the in-process buckets do, take for take, the clock going back too', async () => {
    await fc.assert(
      fc.asyncProperty(policy, policy, fc.array(step, { minLength: 1, maxLength: 40 }), async (ip, account, steps) => {
        await redis.forget();
        const clock = new ManualClock();
        const policies: Record<string, BucketPolicy> = { ip, account };
        const local = new LocalRateBuckets(policies, clock, 1_000);
        const shared = new RedisRateBuckets(redis.redis(), redis.prefix(), policies, clock);
        for (const next of steps) {
          if (next.kind === 'advance') {
            clock.advance(next.ms);
            continue;
          }
          const buckets = [{ dimension: 'ip', key: `10.0.0.${next.ip}` }];
          if (next.account !== null) buckets.push({ dimension: 'account', key: `0.0.${next.account}` });
          expect(await shared.take(buckets, next.cost)).toBe(local.take(buckets, next.cost));
        }
      }),
      { numRuns: 80 },
    );
  });
});
