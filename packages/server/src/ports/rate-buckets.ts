/** A token bucket's shape: the burst, and the rate it fills back at. */
export interface BucketPolicy {
  /** The burst, in tokens: a positive integer. */
  readonly capacity: number;
  /** Tokens given back per second: positive, a multiple of 0.001. */
  readonly refillPerSecond: number;
}

/** One bucket: its dimension (`ip`, `account`), whose policy it follows, and its key there. */
export interface BucketKey {
  readonly dimension: string;
  readonly key: string;
}

/**
 * Token buckets by key, each dimension with its policy: in one process, or in Redis, shared by
 * every gateway so that a client's limit holds whichever gateway it reaches.
 */
export interface RateBuckets {
  /**
   * Takes `cost` tokens from every bucket named when each holds that many, else takes none: a
   * request one bucket refuses costs nothing from the others. Answers 0 when taken, else the ms
   * until the same take would be (Infinity: never, the cost is more than a bucket holds).
   */
  take(buckets: readonly BucketKey[], cost: number): number | Promise<number>;
}
