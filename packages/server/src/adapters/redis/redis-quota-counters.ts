import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { monthOf } from '../../domain/data-api/utc-month.js';
import type { CounterId, CountTaken, QuotaCounters } from '../../ports/quota-counters.js';

/**
 * Admission and count in one step, on whichever gateway, for `n` requests of one key at once: as
 * many as the limit leaves room for are admitted and counted. A count Redis does not hold answers
 * "seed me" (-1) unless the caller brought the store's count to seed it with. The epoch key names
 * this life of Redis's counts; Redis here keeps nothing on disk, so a restart loses both together.
 * KEYS: count, epoch. ARGV: limit (-1: none), seed ('' for none), expiry (unix ms), a new epoch, n.
 * Answers: admitted (or -1), the count after them, the epoch.
 */
const TAKE = `
local epoch = redis.call('GET', KEYS[2])
if not epoch then
  epoch = ARGV[4]
  redis.call('SET', KEYS[2], epoch)
end
local served = redis.call('GET', KEYS[1])
if not served then
  if ARGV[2] == '' then return {-1, 0, epoch} end
  served = ARGV[2]
  redis.call('SET', KEYS[1], served, 'PXAT', ARGV[3])
end
served = tonumber(served)
local limit = tonumber(ARGV[1])
local admitted = tonumber(ARGV[5])
if limit >= 0 then admitted = math.max(0, math.min(admitted, limit - served)) end
if admitted > 0 then served = redis.call('INCRBY', KEYS[1], admitted) end
return {admitted, served, epoch}
`;

/** Takes back requests counted in this epoch. KEYS: count, epoch. ARGV: requests, epoch. */
const GIVE_BACK = `
if redis.call('GET', KEYS[2]) == ARGV[2] and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('DECRBY', KEYS[1], ARGV[1])
end
return 0
`;

/** Raises counts Redis holds to the store's totals. KEYS: counts. ARGV: totals, in order. */
const AT_LEAST = `
for i, name in ipairs(KEYS) do
  local served = redis.call('GET', name)
  if served and tonumber(served) < tonumber(ARGV[i]) then redis.call('SET', name, ARGV[i], 'KEEPTTL') end
end
return 0
`;

/** Takes of one count sent in one script call, at most. */
const MAX_TAKES_PER_CALL = 1_000;

interface TakeQueue {
  readonly id: CounterId;
  readonly limit: number | null;
  readonly stored: () => Promise<number>;
  readonly waiting: { resolve: (taken: CountTaken) => void; reject: (error: unknown) => void }[];
}

/** How long a month's count outlives the month: requests answered at its last instant still find it. */
const KEPT_AFTER_MONTH_MS = 7 * 24 * 3_600_000;

interface Scripts {
  quotaTake(
    count: string,
    epoch: string,
    limit: number,
    seed: string,
    expiresAt: number,
    fresh: string,
    requests: number,
  ): Promise<[number, number, string]>;
  quotaGiveBack(count: string, epoch: string, requests: number, current: string): Promise<number>;
  quotaAtLeast(keyCount: number, ...keysAndTotals: (string | number)[]): Promise<number>;
}

/**
 * The data API's counters in Redis, shared by every gateway: exact across them. The store's counts
 * stay the durable ones, so Redis needs no disk: after a restart each count is seeded again from
 * the store, and commits already on their way raise it to their totals once they land.
 */
export class RedisQuotaCounters implements QuotaCounters {
  private readonly scripts: Scripts;
  /** Takes waiting for a script call, by count and limit. */
  private readonly queues = new Map<string, TakeQueue>();

  constructor(
    private readonly redis: Redis,
    /** Prefix of every key, so that deployments (and tests) can share a Redis. */
    private readonly prefix: string,
  ) {
    redis.defineCommand('quotaTake', { numberOfKeys: 2, lua: TAKE });
    redis.defineCommand('quotaGiveBack', { numberOfKeys: 2, lua: GIVE_BACK });
    redis.defineCommand('quotaAtLeast', { lua: AT_LEAST });
    this.scripts = redis as unknown as Scripts;
  }

  /**
   * Takes of one count that arrive while a take of it is on its way to Redis wait, and go together
   * in the next script call: one round trip for many requests under load, none added when idle.
   */
  take(id: CounterId, limit: number | null, stored: () => Promise<number>): Promise<CountTaken> {
    const key = `${this.countKey(id)}:${limit ?? -1}`;
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(key);
      if (queue === undefined) {
        queue = { id, limit, stored, waiting: [] };
        this.queues.set(key, queue);
        void this.drain(key, queue);
      }
      queue.waiting.push({ resolve, reject });
    });
  }

  private async drain(key: string, queue: TakeQueue): Promise<void> {
    // Let the caller's own take join the first call.
    await Promise.resolve();
    while (queue.waiting.length > 0) {
      const waiting = queue.waiting.splice(0, MAX_TAKES_PER_CALL);
      try {
        const { admitted, served, epoch } = await this.takeMany(queue, waiting.length);
        // The first `admitted` in arrival order are in, each with its own count.
        for (const [index, waiter] of waiting.entries()) {
          waiter.resolve(
            index < admitted
              ? { admitted: true, served: served - admitted + 1 + index, epoch }
              : { admitted: false, served, epoch },
          );
        }
      } catch (error) {
        for (const waiter of waiting) waiter.reject(error);
      }
    }
    this.queues.delete(key);
  }

  private async takeMany(queue: TakeQueue, requests: number): Promise<{ admitted: number; served: number; epoch: string }> {
    const attempt = (seed: string) =>
      this.scripts.quotaTake(
        this.countKey(queue.id),
        this.epochKey,
        queue.limit ?? -1,
        seed,
        expiryOf(queue.id),
        randomUUID(),
        requests,
      );
    let [admitted, served, epoch] = await attempt('');
    if (admitted === -1) [admitted, served, epoch] = await attempt(String(await queue.stored()));
    return { admitted, served, epoch };
  }

  async served(id: CounterId, stored: () => Promise<number>): Promise<number> {
    const served = await this.redis.get(this.countKey(id));
    return served === null ? stored() : Number(served);
  }

  async giveBack(id: CounterId, requests: number, epoch: string): Promise<void> {
    await this.scripts.quotaGiveBack(this.countKey(id), this.epochKey, requests, epoch);
  }

  async atLeast(totals: readonly (CounterId & { readonly served: number })[]): Promise<void> {
    if (totals.length === 0) return;
    const keys = totals.map((total) => this.countKey(total));
    await this.scripts.quotaAtLeast(keys.length, ...keys, ...totals.map((total) => total.served));
  }

  private get epochKey(): string {
    return `${this.prefix}quota:epoch`;
  }

  private countKey(id: CounterId): string {
    return `${this.prefix}quota:${id.keyId}:${id.monthStart}`;
  }
}

/** Counts expire a week after their month ends: the store holds them for good. */
function expiryOf(id: CounterId): number {
  return monthOf(id.monthStart).end + KEPT_AFTER_MONTH_MS;
}
