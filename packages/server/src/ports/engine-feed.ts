import type { DepthSnapshot, PoolReserves } from '@dex/core';
import type { DeskCommit } from '../domain/orders/desk-commit.js';

/**
 * What engines tell gateways (ROLE=engine to ROLE=gateway): each stored commit group, and on
 * request the state of one book. Delivery is at most once: a gateway that misses a commit sees the
 * gap in the book's update ids and asks for a snapshot.
 */

/** The pool of a book as the engine knows it after a commit; null: the book has no pool (or no reserves yet). */
export type BookPoolState = readonly [bookId: number, reserves: PoolReserves | null];

/** One stored commit group of a shard, with the pools of the books it touched. */
export interface EnginePublication {
  readonly shard: number;
  readonly commit: DeskCommit;
  readonly pools: readonly BookPoolState[];
}

/** One book as its engine holds it: full depth and pool. */
export interface BookSnapshot {
  readonly depth: DepthSnapshot;
  readonly pool: PoolReserves | null;
}

/** The engine's side. */
export interface EngineFeedPublisher {
  publish(publication: EnginePublication): void;
  /** Answers snapshot requests for the books `snapshotOf` knows (undefined: not this engine's book, no answer). */
  serveSnapshots(snapshotOf: (bookId: number) => BookSnapshot | undefined): Promise<() => Promise<void>>;
}

/** The gateway's side. */
export interface EngineFeedSubscriber {
  /** Hands every publication of every shard to `receive`, in each shard's order; returns the stop. */
  subscribe(receive: (publication: EnginePublication) => void): Promise<() => Promise<void>>;
  /** The book's state from the engine that owns it; rejects when none answers within `timeoutMs`. */
  snapshot(bookId: number, timeoutMs: number): Promise<BookSnapshot>;
}
