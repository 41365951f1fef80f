/** The requests of one API key in one UTC month. */
export interface CounterId {
  readonly keyId: number;
  /** Unix ms of the first instant of the month. */
  readonly monthStart: number;
}

/** What one attempt to count a request found. */
export interface CountTaken {
  readonly admitted: boolean;
  /** Requests counted this month, this one included if admitted. */
  readonly served: number;
  /**
   * The life of the counters the request was counted in: counters that lost their counts (a
   * restart of Redis) start a new one, and requests given back to an older one are not taken from
   * counts seeded anew.
   */
  readonly epoch: string;
}

/**
 * The live request counts of the data API's keys: one process's memory, or Redis, which every
 * gateway shares. Admission and count are one atomic step, so concurrent requests (on any gateway)
 * never both take the last unit of a quota. The store's counts are the durable ones: a count the
 * counters do not hold is seeded from it, and every admitted request reaches it before its answer.
 */
export interface QuotaCounters {
  /** Counts one request unless `limit` is reached (null: no limit); `stored` reads the store's count. */
  take(id: CounterId, limit: number | null, stored: () => Promise<number>): Promise<CountTaken>;
  /** Requests counted this month, counting nothing. */
  served(id: CounterId, stored: () => Promise<number>): Promise<number>;
  /** Takes back requests whose counts could not be stored: nobody heard they were admitted. */
  giveBack(id: CounterId, requests: number, epoch: string): Promise<void>;
  /**
   * Raises counts to what the store holds after a commit: a count seeded while commits of an older
   * epoch were on their way would otherwise miss them.
   */
  atLeast(totals: readonly (CounterId & { readonly served: number })[]): Promise<void>;
}
