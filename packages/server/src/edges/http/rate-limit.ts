import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import { TokenBucketLimiter } from './token-bucket.js';

export interface BucketPolicy {
  /** The burst, in tokens. */
  readonly capacity: number;
  /** Tokens given back per second (a multiple of 0.001). */
  readonly refillPerSecond: number;
}

/** One bucket per client IP and one per account; null switches that dimension off. */
export interface RateLimitPolicy {
  readonly perIp: BucketPolicy | null;
  readonly perAccount: BucketPolicy | null;
}

export interface RateLimitOptions {
  readonly clock: Clock;
  /** The most buckets each dimension keeps (IPs and accounts are counted apart). Default 100 000. */
  readonly maxKeys?: number;
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

const DEFAULT_MAX_KEYS = 100_000;

interface Dimension {
  readonly limiter: TokenBucketLimiter;
  readonly key: (request: FastifyRequest) => string | undefined;
}

/**
 * A route hook that answers 429 `RATE_LIMITED` with `Retry-After` when the caller's IP or account
 * has run out of tokens. Every applicable bucket is checked before any is charged, so a request
 * one bucket refuses costs nothing from the others: an account at its limit does not drain the IP
 * it shares with others behind a NAT, and an IP at its limit does not drain the account. A refused
 * request costs nothing at all, so a client that waits `Retry-After` is served.
 */
export function rateLimitHook(policy: RateLimitPolicy, options: RateLimitOptions): RateLimitHook {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const dimensions: Dimension[] = [];
  if (policy.perIp !== null) {
    const limiter = new TokenBucketLimiter({ ...policy.perIp, maxKeys, clock: options.clock });
    // request.ip already honours the app's trustProxy setting.
    dimensions.push({ limiter, key: (request) => request.ip });
  }
  if (policy.perAccount !== null) {
    const limiter = new TokenBucketLimiter({ ...policy.perAccount, maxKeys, clock: options.clock });
    dimensions.push({ limiter, key: options.account });
  }
  if (dimensions.length === 0) {
    return async () => {
      // No limit configured: nothing to check.
    };
  }
  const cost = options.cost ?? (() => 1);

  return async (request, reply) => {
    const charge = cost(request);
    const due: { limiter: TokenBucketLimiter; key: string }[] = [];
    for (const dimension of dimensions) {
      const key = dimension.key(request);
      if (key !== undefined) due.push({ limiter: dimension.limiter, key });
    }
    let waitMs = 0;
    for (const { limiter, key } of due) {
      const verdict = limiter.peek(key, charge);
      if (!verdict.allowed) waitMs = Math.max(waitMs, verdict.retryAfterMs);
    }
    if (waitMs === Number.POSITIVE_INFINITY) {
      // No wait helps, so no Retry-After: the batch must be split.
      throw new AppError('RATE_LIMITED', `Too many requests: a request costing ${charge} is more than the limit allows at once`);
    }
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1_000));
      reply.header('retry-after', String(seconds));
      throw new AppError('RATE_LIMITED', `Too many requests: retry in ${seconds} s`);
    }
    // Nothing runs between the checks and the takes (no await), so every take succeeds.
    for (const { limiter, key } of due) limiter.take(key, charge);
  };
}
