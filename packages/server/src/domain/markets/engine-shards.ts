/**
 * How the books are spread over the engines: book `id` belongs to shard `id mod shards`. Stable
 * while the count stays; changing the count moves books, so every engine must stop first (each
 * book's state is in the store, and the new owner rebuilds it from there).
 */
export function shardOf(bookId: number, shards: number): number {
  if (!Number.isSafeInteger(shards) || shards < 1)
    throw new RangeError(`the shard count must be a positive integer, not ${shards}`);
  return bookId % shards;
}

/** Whether `shard` of `shards` owns the book. */
export function ownsBook(bookId: number, shard: number, shards: number): boolean {
  return shardOf(bookId, shards) === shard;
}

/** The books one engine writes: those of shard `index` of `count`. */
export interface EngineShard {
  readonly index: number;
  readonly count: number;
}
