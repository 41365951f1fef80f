import type { DepthSnapshot, LevelSource, PoolReserves } from '@dex/core';

/** What market data reads of one book: its levels, depth, halt state and pool. A matching engine is one. */
export interface BookView extends LevelSource {
  depth(): DepthSnapshot;
  /** The update id of the book's last change: the same id, the same depth. */
  readonly lastUpdateId: number;
  readonly isHalted: boolean;
  readonly pool: PoolReserves | undefined;
}

/** The books market data reads: the engines in this process, or a gateway's replicas of them. */
export interface BookViews {
  /** The book's view; undefined for a book there is none of. Throws TRADING_UNAVAILABLE while the view is not in step. */
  view(bookId: number): BookView | undefined;
}
