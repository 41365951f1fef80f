import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, failingAs } from '../../domain/errors.js';
import type { BucketKey, BucketPolicy, RateBuckets } from '../../ports/rate-buckets.js';

export type { BucketPolicy } from '../../ports/rate-buckets.js';

/** One bucket per client IP and one per account; null switches that dimension off. */
export interface RateLimitPolicy {
  readonly perIp: BucketPolicy | null;
  readonly perAccount: BucketPolicy | null;
}

/** The policy by dimension, as the buckets take it: `ip` and `account`, those switched on. */
export function bucketPolicies(policy: RateLimitPolicy): Record<string, BucketPolicy> {
  const policies: Record<string, BucketPolicy> = {};
  if (policy.perIp !== null) policies.ip = policy.perIp;
  if (policy.perAccount !== null) policies.account = policy.perAccount;
  return policies;
}

export interface RateLimitOptions {
  /**
   * Tokens a request costs; default 1 per request. A batch route charges its size (a save of 250
   * orders costs 250). A cost read from the body needs the hook at `preHandler`: at `onRequest` the
   * body is not parsed yet.
   */
  readonly cost?: (request: FastifyRequest) => number;
  /** The already-authenticated account, or undefined: then only the per-IP bucket applies. */
  readonly account: (request: FastifyRequest) => string | undefined;
}

export type RateLimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * A route hook that answers 429 `RATE_LIMITED` with `Retry-After` when the caller's IP or account
 * has run out of tokens in `buckets` (null: no limit). Every applicable bucket is checked before
 * any is charged, so a request one bucket refuses costs nothing from the others: an account at its
 * limit does not drain the IP it shares with others behind a NAT, and an IP at its limit does not
 * drain the account. A refused request costs nothing at all, so a client that waits `Retry-After`
 * is served.
 */
export function rateLimitHook(buckets: RateBuckets | null, options: RateLimitOptions): RateLimitHook {
  if (buckets === null) {
    return async () => {
      // No limit configured: nothing to check.
    };
  }
  const cost = options.cost ?? (() => 1);

  return async (request, reply) => {
    const charge = cost(request);
    // request.ip already honours the app's trustProxy setting.
    const due: BucketKey[] = [{ dimension: 'ip', key: request.ip }];
    const account = options.account(request);
    if (account !== undefined) due.push({ dimension: 'account', key: account });
    const waitMs = await failingAs('RATE_LIMIT_UNAVAILABLE', buckets.take(due, charge));
    if (waitMs === Number.POSITIVE_INFINITY) {
      // No wait helps, so no Retry-After: the batch must be split.
      throw new AppError('RATE_LIMITED', `Too many requests: a request costing ${charge} is more than the limit allows at once`);
    }
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1_000));
      reply.header('retry-after', String(seconds));
      throw new AppError('RATE_LIMITED', `Too many requests: retry in ${seconds} s`);
    }
  };
}
