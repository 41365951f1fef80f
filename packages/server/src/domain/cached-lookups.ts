import { TtlCache } from './ttl-cache.js';

/**
 * Answers of a slow lookup by key, cached: found and missing apart (so that a flood of unknown keys
 * cannot evict the ones in use), each for its own time, and concurrent lookups of one key sharing
 * one request. A failed lookup is not cached.
 */
export class CachedLookups<V> {
  private readonly found: TtlCache<V>;
  private readonly missing: TtlCache<true>;
  private readonly pending = new Map<string, Promise<V | undefined>>();

  constructor(options: { readonly foundTtlMs: number; readonly missingTtlMs: number; readonly maxEntries: number }) {
    this.found = new TtlCache(options.foundTtlMs, options.maxEntries);
    this.missing = new TtlCache(options.missingTtlMs, options.maxEntries);
  }

  /** The cached answer for `key`, or `fetch`'s, remembered at `now()` when it arrives. */
  async get(key: string, now: () => number, fetch: (key: string) => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.found.get(key, now());
    if (cached !== undefined) return cached;
    if (this.missing.get(key, now()) !== undefined) return undefined;
    let request = this.pending.get(key);
    if (request === undefined) {
      request = fetch(key)
        .then((value) => {
          if (value === undefined) this.missing.set(key, true, now());
          else this.found.set(key, value, now());
          return value;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, request);
    }
    return request;
  }
}
