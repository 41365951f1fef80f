import { ChallengeBook } from '../adapters/memory/challenge-book.js';
import { LocalQuotaCounters } from '../adapters/memory/local-quota-counters.js';
import { LocalRateBuckets } from '../adapters/memory/local-rate-buckets.js';
import { closeRedis, openRedis } from '../adapters/redis/redis-connection.js';
import { RedisLoginChallenges } from '../adapters/redis/redis-login-challenges.js';
import { RedisQuotaCounters } from '../adapters/redis/redis-quota-counters.js';
import { RedisRateBuckets } from '../adapters/redis/redis-rate-buckets.js';
import { bucketPolicies } from '../edges/http/rate-limit.js';
import type { Clock } from '../ports/clock.js';
import type { Dependency } from '../ports/dependency.js';
import type { Logger } from '../ports/logger.js';
import type { LoginChallenges } from '../ports/login-challenges.js';
import type { QuotaCounters } from '../ports/quota-counters.js';
import type { RateBuckets } from '../ports/rate-buckets.js';
import type { Config } from './config.js';

/** What the processes serving one store must share to answer alike: kept in this one, or in Redis. */
export interface SharedState {
  readonly quotaCounters: QuotaCounters;
  readonly challenges: LoginChallenges;
  /** The order routes' token buckets; null when ORDER_RATE_LIMIT is off. */
  readonly rateBuckets: RateBuckets | null;
  /** The login routes' token buckets, per client address; null when AUTH_RATE_LIMIT is off. */
  readonly loginBuckets: RateBuckets | null;
  /** Redis, for `/ready` to ask; null when the state lives in this process. */
  readonly dependency: Dependency | null;
  close(): Promise<void>;
}

/** Challenges open per account, per client address and in all (login-challenges.ts): bounds memory against floods of challenge requests. */
const CHALLENGES_PER_ACCOUNT = 5;
const CHALLENGES_PER_REQUESTER = 10;
const CHALLENGES_IN_ALL = 100_000;
/** Buckets each dimension of the in-process rate limit keeps (IPs and accounts apart). */
const LOCAL_BUCKETS = 100_000;

/** The shared state the configuration names: in Redis at REDIS_URL, else in this process's memory. */
export async function openSharedState(
  config: Pick<Config, 'redis' | 'challengeTtlSeconds' | 'orderRateLimit' | 'authRateLimit'>,
  clock: Clock,
  logger: Logger,
): Promise<SharedState> {
  const challengeOptions = {
    ttlMs: config.challengeTtlSeconds * 1000,
    perAccount: CHALLENGES_PER_ACCOUNT,
    perRequester: CHALLENGES_PER_REQUESTER,
    total: CHALLENGES_IN_ALL,
  };
  const policies = config.orderRateLimit === null ? null : bucketPolicies(config.orderRateLimit);
  const loginPolicies = config.authRateLimit === null ? null : bucketPolicies({ perIp: config.authRateLimit, perAccount: null });
  if (config.redis === null) {
    return {
      quotaCounters: new LocalQuotaCounters(),
      challenges: new ChallengeBook(challengeOptions),
      rateBuckets: policies === null ? null : new LocalRateBuckets(policies, clock, LOCAL_BUCKETS),
      loginBuckets: loginPolicies === null ? null : new LocalRateBuckets(loginPolicies, clock, LOCAL_BUCKETS),
      dependency: null,
      close: async () => {},
    };
  }
  const { keyPrefix } = config.redis;
  const redis = await openRedis(config.redis.url, logger);
  return {
    quotaCounters: new RedisQuotaCounters(redis, keyPrefix),
    challenges: new RedisLoginChallenges(redis, keyPrefix, challengeOptions),
    rateBuckets: policies === null ? null : new RedisRateBuckets(redis, keyPrefix, policies, clock),
    loginBuckets: loginPolicies === null ? null : new RedisRateBuckets(redis, `${keyPrefix}login:`, loginPolicies, clock),
    dependency: {
      name: 'redis',
      check: async () => {
        await redis.ping();
      },
    },
    close: () => closeRedis(redis),
  };
}
