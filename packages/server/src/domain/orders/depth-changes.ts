import { BUY, bestPriceFirst, type DepthEvent, SELL, type Side } from '@dex/core';
import type { BookDepthChange, LevelSize } from './desk-commit.js';

interface BookChanges {
  readonly firstUpdateId: number;
  finalUpdateId: number;
  readonly time: number;
  /** Price in ticks -> size in steps, the latest seen. */
  readonly bids: Map<bigint, number>;
  readonly asks: Map<bigint, number>;
}

function sorted(levels: Map<bigint, number>, side: Side): LevelSize[] {
  return [...levels].sort(bestPriceFirst(side));
}

/**
 * Depth updates of several books folded together, in the order the engines made them: per book the
 * range of update ids and the last size of each level touched. Sizes are absolute, so a client
 * that applies the folded change gets the same book as one that applied every update.
 */
export class DepthChanges {
  private readonly books = new Map<number, BookChanges>();

  add(bookId: number, event: DepthEvent): void {
    let book = this.books.get(bookId);
    if (book === undefined) {
      book = { firstUpdateId: event.updateId, finalUpdateId: event.updateId, time: event.time, bids: new Map(), asks: new Map() };
      this.books.set(bookId, book);
    }
    book.finalUpdateId = event.updateId;
    (event.side === BUY ? book.bids : book.asks).set(event.price, event.quantity);
  }

  list(): BookDepthChange[] {
    return [...this.books].map(([bookId, book]) => ({
      bookId,
      firstUpdateId: book.firstUpdateId,
      finalUpdateId: book.finalUpdateId,
      time: book.time,
      bids: sorted(book.bids, BUY),
      asks: sorted(book.asks, SELL),
    }));
  }
}
