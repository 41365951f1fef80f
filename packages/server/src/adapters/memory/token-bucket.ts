import type { Clock } from '../../ports/clock.js';

/**
 * Tokens are counted in millionths: a refill rate that is a multiple of 0.001 token/s then adds a
 * whole number of units every millisecond, so lazy refills are exact integers and never drift.
 */
const UNITS_PER_TOKEN = 1_000_000;
const MS_PER_SECOND = 1_000;

export interface TokenBucketOptions {
  /** The burst: the most tokens a bucket holds. A new or idle bucket is full. A positive integer. */
  readonly capacity: number;
  /** Tokens added back per second: positive, a multiple of 0.001. */
  readonly refillPerSecond: number;
  /** The most buckets held at once; see {@link TokenBucketLimiter} for which one goes when full. */
  readonly maxKeys: number;
  readonly clock: Clock;
}

export interface TakeResult {
  readonly allowed: boolean;
  /**
   * 0 when allowed. When refused, the milliseconds until the same take would be allowed, or
   * `Infinity` when it never can because the cost is larger than the capacity (a number, so a caller
   * that forgets the case still computes "never" and not a misleading "soon").
   */
  readonly retryAfterMs: number;
  /** Whole tokens left in the bucket after this call. */
  readonly remaining: number;
}

interface Bucket {
  readonly key: string;
  units: number;
  /** Integer ms up to which `units` is refilled; it never goes back, even when the clock does. */
  refilledAt: number;
  /** The first ms at which the bucket is full again: from then on dropping it loses nothing. */
  fullAt: number;
  /** Position in the `fullAt` heap. */
  heapIndex: number;
}

/** `ceil(a / b)` for non-negative safe integers, without a float division that could round. */
function ceilDiv(a: number, b: number): number {
  const remainder = a % b;
  return (a - remainder) / b + (remainder === 0 ? 0 : 1);
}

function wholeTokens(units: number): number {
  return (units - (units % UNITS_PER_TOKEN)) / UNITS_PER_TOKEN;
}

function requirePositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}

/**
 * Token buckets by key (an IP, an account), refilled lazily when a key is used.
 *
 * Memory is bounded by `maxKeys`. When a new key arrives at the bound, a bucket that is full again
 * goes first (it is indistinguishable from an absent one, so nothing is forgotten); only when none
 * is full does the least recently used go, which hands that key a fresh burst. Full buckets are
 * found through a min-heap on the time they refill, so even a flood of new keys costs O(log n) per
 * request, never a scan. A refused take still counts as a use: a key that keeps hammering stays in.
 */
export class TokenBucketLimiter {
  private readonly capacityUnits: number;
  private readonly unitsPerMs: number;
  private readonly maxKeys: number;
  private readonly clock: Clock;
  /** In order of last use, least recent first: a use deletes and re-inserts the key. */
  private readonly buckets = new Map<string, Bucket>();
  /** Min-heap on `fullAt`. */
  private readonly heap: Bucket[] = [];

  constructor(options: TokenBucketOptions) {
    requirePositiveInteger('capacity', options.capacity);
    requirePositiveInteger('maxKeys', options.maxKeys);
    const unitsPerMs = Math.round((options.refillPerSecond * UNITS_PER_TOKEN) / MS_PER_SECOND);
    // The tolerance absorbs float noise such as 0.007 * 1000 = 7.000000000000001.
    const whole = Math.abs(unitsPerMs - options.refillPerSecond * MS_PER_SECOND) <= 1e-6;
    if (!Number.isSafeInteger(unitsPerMs) || unitsPerMs <= 0 || !whole) {
      throw new RangeError(`refillPerSecond must be a positive multiple of 0.001, got ${options.refillPerSecond}`);
    }
    this.capacityUnits = options.capacity * UNITS_PER_TOKEN;
    if (!Number.isSafeInteger(this.capacityUnits)) throw new RangeError(`capacity ${options.capacity} is too large`);
    this.unitsPerMs = unitsPerMs;
    this.maxKeys = options.maxKeys;
    this.clock = options.clock;
  }

  /** How many buckets are held now. */
  get size(): number {
    return this.buckets.size;
  }

  /** What `take(key, cost)` would answer now, changing nothing: not the tokens, not the order of use. */
  peek(key: string, cost = 1): TakeResult {
    const costUnits = this.costUnits(cost);
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return this.verdict(this.capacityUnits, costUnits, 0);
    const now = this.now();
    return this.verdict(this.unitsAt(bucket, now), costUnits, Math.max(0, bucket.refilledAt - now));
  }

  /** Takes `cost` tokens from the key's bucket when it holds that many; otherwise takes nothing. */
  take(key: string, cost = 1): TakeResult {
    const costUnits = this.costUnits(cost);
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (costUnits > this.capacityUnits) return this.verdict(this.capacityUnits, costUnits, 0);
      bucket = this.insert(key, now);
    } else {
      bucket.units = this.unitsAt(bucket, now);
      bucket.refilledAt = Math.max(bucket.refilledAt, now);
      this.buckets.delete(key);
      this.buckets.set(key, bucket);
    }
    const result = this.verdict(bucket.units, costUnits, bucket.refilledAt - now);
    if (result.allowed && costUnits > 0) {
      bucket.units -= costUnits;
      // Taking only ever moves fullAt later, so the bucket can only sink in the heap.
      bucket.fullAt = bucket.refilledAt + ceilDiv(this.capacityUnits - bucket.units, this.unitsPerMs);
      this.siftDown(bucket);
    }
    return result;
  }

  private now(): number {
    return Math.floor(this.clock.now());
  }

  private costUnits(cost: number): number {
    if (!Number.isSafeInteger(cost) || cost < 0) throw new RangeError(`cost must be a non-negative integer, got ${cost}`);
    return cost * UNITS_PER_TOKEN;
  }

  /** The bucket's units refilled up to `now`; a clock that went back refills nothing. */
  private unitsAt(bucket: Bucket, now: number): number {
    if (now >= bucket.fullAt) return this.capacityUnits;
    return bucket.units + Math.max(0, now - bucket.refilledAt) * this.unitsPerMs;
  }

  /**
   * The answer for a bucket holding `units` before the take; `lagMs` is how far the clock stands
   * behind the bucket's last refill (it went back), time that passes before any refill starts.
   */
  private verdict(units: number, costUnits: number, lagMs: number): TakeResult {
    if (costUnits > this.capacityUnits) {
      return { allowed: false, retryAfterMs: Number.POSITIVE_INFINITY, remaining: wholeTokens(units) };
    }
    if (units < costUnits) {
      const retryAfterMs = lagMs + ceilDiv(costUnits - units, this.unitsPerMs);
      return { allowed: false, retryAfterMs, remaining: wholeTokens(units) };
    }
    return { allowed: true, retryAfterMs: 0, remaining: wholeTokens(units - costUnits) };
  }

  private insert(key: string, now: number): Bucket {
    if (this.buckets.size >= this.maxKeys) this.evictOne(now);
    const bucket: Bucket = { key, units: this.capacityUnits, refilledAt: now, fullAt: now, heapIndex: this.heap.length };
    this.buckets.set(key, bucket);
    this.heap.push(bucket);
    this.siftUp(bucket);
    return bucket;
  }

  private evictOne(now: number): void {
    const soonestFull = this.heap[0];
    const victim = soonestFull !== undefined && soonestFull.fullAt <= now ? soonestFull : this.buckets.values().next().value;
    if (victim === undefined) return;
    this.buckets.delete(victim.key);
    const last = this.heap.pop();
    if (last === undefined || last === victim) return;
    last.heapIndex = victim.heapIndex;
    this.heap[last.heapIndex] = last;
    this.siftUp(last);
    this.siftDown(last);
  }

  private siftUp(bucket: Bucket): void {
    let index = bucket.heapIndex;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = this.heap[parentIndex];
      if (parent === undefined || parent.fullAt <= bucket.fullAt) break;
      this.place(parent, index);
      index = parentIndex;
    }
    this.place(bucket, index);
  }

  private siftDown(bucket: Bucket): void {
    let index = bucket.heapIndex;
    for (;;) {
      const left = this.heap[2 * index + 1];
      if (left === undefined) break;
      const right = this.heap[2 * index + 2];
      const child = right !== undefined && right.fullAt < left.fullAt ? right : left;
      if (child.fullAt >= bucket.fullAt) break;
      const childIndex = child.heapIndex;
      this.place(child, index);
      index = childIndex;
    }
    this.place(bucket, index);
  }

  private place(bucket: Bucket, index: number): void {
    this.heap[index] = bucket;
    bucket.heapIndex = index;
  }
}
