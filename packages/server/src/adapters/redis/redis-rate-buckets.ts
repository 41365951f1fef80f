import type { Redis } from 'ioredis';
import type { Clock } from '../../ports/clock.js';
import type { BucketKey, BucketPolicy, RateBuckets } from '../../ports/rate-buckets.js';

/** Tokens are counted in millionths, as in the in-process buckets: refills are exact integers. */
const UNITS_PER_TOKEN = 1_000_000;
/** A bucket's key outlives the time it is full again by this much (Redis's clock, not the service's). */
const KEPT_AFTER_FULL_MS = 60_000;

/**
 * Checks every bucket, then takes from all or none: one atomic step across gateways.
 * KEYS: the buckets (hashes of `units` and `at`, the ms up to which they are refilled; absent:
 * full). ARGV: now, cost in units, then per bucket its capacity in units and units per ms.
 * Answers 0 when taken, -1 when a cost exceeds a capacity, else the ms to wait.
 */
const TAKE = `
local now, cost = tonumber(ARGV[1]), tonumber(ARGV[2])
local buckets, wait = {}, 0
for i, name in ipairs(KEYS) do
  local capacity, rate = tonumber(ARGV[1 + 2 * i]), tonumber(ARGV[2 + 2 * i])
  if cost > capacity then return -1 end
  local held = redis.call('HMGET', name, 'units', 'at')
  local units, at = capacity, now
  if held[1] then
    at = tonumber(held[2])
    units = math.min(capacity, tonumber(held[1]) + math.max(0, now - at) * rate)
    -- The refill point never goes back, even when a gateway's clock does.
    if now > at then at = now end
  end
  buckets[i] = { units, at, capacity, rate }
  if units < cost then
    local need = cost - units
    local ms = math.floor(need / rate)
    if ms * rate < need then ms = ms + 1 end
    wait = math.max(wait, at - now + ms)
  end
end
if wait > 0 then return wait end
for i, name in ipairs(KEYS) do
  local units, at, capacity, rate = unpack(buckets[i])
  units = units - cost
  redis.call('HSET', name, 'units', units, 'at', at)
  redis.call('PEXPIRE', name, math.ceil((capacity - units) / rate) + (at - now) + tonumber(ARGV[#ARGV]))
end
return 0
`;

interface Scripts {
  rateTake(keyCount: number, ...keysAndArguments: (string | number)[]): Promise<number>;
}

/** A policy in the units the script counts. */
interface Units {
  readonly capacity: number;
  readonly perMs: number;
}

/**
 * Token buckets in Redis, shared by every gateway: a client's limit holds whichever gateway it
 * reaches. The same rules as the in-process buckets (exact integer refills, all or none, the
 * refill point never goes back); a bucket Redis forgot (its key expired once full, or a restart)
 * is a full one. Time is the service's clock, passed in.
 */
export class RedisRateBuckets implements RateBuckets {
  private readonly scripts: Scripts;
  private readonly policies = new Map<string, Units>();

  constructor(
    redis: Redis,
    private readonly prefix: string,
    policies: Readonly<Record<string, BucketPolicy>>,
    private readonly clock: Clock,
  ) {
    redis.defineCommand('rateTake', { lua: TAKE });
    this.scripts = redis as unknown as Scripts;
    for (const [dimension, policy] of Object.entries(policies)) {
      this.policies.set(dimension, {
        capacity: policy.capacity * UNITS_PER_TOKEN,
        perMs: Math.round((policy.refillPerSecond * UNITS_PER_TOKEN) / 1_000),
      });
    }
  }

  async take(buckets: readonly BucketKey[], cost: number): Promise<number> {
    const due = buckets.flatMap(({ dimension, key }) => {
      const units = this.policies.get(dimension);
      return units === undefined ? [] : [{ name: `${this.prefix}rate:${dimension}:${key}`, units }];
    });
    if (due.length === 0) return 0;
    const wait = await this.scripts.rateTake(
      due.length,
      ...due.map(({ name }) => name),
      Math.floor(this.clock.now()),
      cost * UNITS_PER_TOKEN,
      ...due.flatMap(({ units }) => [units.capacity, units.perMs]),
      KEPT_AFTER_FULL_MS,
    );
    return wait === -1 ? Number.POSITIVE_INFINITY : wait;
  }
}
