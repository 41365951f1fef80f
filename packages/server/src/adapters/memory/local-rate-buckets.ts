import type { Clock } from '../../ports/clock.js';
import type { BucketKey, BucketPolicy, RateBuckets } from '../../ports/rate-buckets.js';
import { TokenBucketLimiter } from './token-bucket.js';

/**
 * The token buckets of one process, bounded to `maxKeys` per dimension (see TokenBucketLimiter).
 * A dimension without a policy is not limited.
 */
export class LocalRateBuckets implements RateBuckets {
  private readonly limiters = new Map<string, TokenBucketLimiter>();

  constructor(policies: Readonly<Record<string, BucketPolicy>>, clock: Clock, maxKeys: number) {
    for (const [dimension, policy] of Object.entries(policies)) {
      this.limiters.set(dimension, new TokenBucketLimiter({ ...policy, maxKeys, clock }));
    }
  }

  take(buckets: readonly BucketKey[], cost: number): number {
    const due = buckets.flatMap(({ dimension, key }) => {
      const limiter = this.limiters.get(dimension);
      return limiter === undefined ? [] : [{ limiter, key }];
    });
    let waitMs = 0;
    for (const { limiter, key } of due) {
      const verdict = limiter.peek(key, cost);
      if (!verdict.allowed) waitMs = Math.max(waitMs, verdict.retryAfterMs);
    }
    if (waitMs > 0) return waitMs;
    // Nothing runs between the checks and the takes, so every take succeeds.
    for (const { limiter, key } of due) limiter.take(key, cost);
    return 0;
  }
}
