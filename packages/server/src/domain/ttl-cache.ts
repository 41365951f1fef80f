/**
 * A small time-bounded cache with a size cap; the oldest entry goes first when full. Time comes
 * from the caller so tests control expiry.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, now: number): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
  }

  /** Returns the cached value or computes, stores and returns a fresh one. */
  getOrCompute(key: string, now: number, compute: () => V): V {
    const cached = this.get(key, now);
    if (cached !== undefined) return cached;
    const value = compute();
    this.set(key, value, now);
    return value;
  }
}
