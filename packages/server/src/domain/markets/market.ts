import { gridSpecOfDisplay, MarketGrid } from '@dex/core';
import type { BookRecord, TokenRecord } from './market-records.js';

/** A book with its two tokens and its parsed grid: everything needed to price and display it. */
export interface Market {
  readonly book: BookRecord;
  readonly base: TokenRecord;
  readonly quote: TokenRecord;
  readonly grid: MarketGrid;
}

/** A book with its tokens and the grid they make. */
export function marketOf(book: BookRecord, base: TokenRecord, quote: TokenRecord): Market {
  const grid = new MarketGrid(
    gridSpecOfDisplay({
      baseDecimals: base.decimals,
      quoteDecimals: quote.decimals,
      tickStep: book.tickStep,
      sizeStep: book.sizeStep,
      lotSize: book.lotSize,
      minNotional: book.minNotional,
    }),
  );
  return { book, base, quote, grid };
}

/** Book ids are positive integers written without leading zeros; anything else names no book. */
const BOOK_ID = /^[1-9][0-9]{0,14}$/;

/** A book id from a path segment or a request field (number or string), or undefined when it cannot name a book. */
export function parseBookId(value: string | number): number | undefined {
  const text = String(value);
  return BOOK_ID.test(text) ? Number(text) : undefined;
}

/** Reading the markets the service knows: what the order rules look a book up in. */
export interface MarketLookup {
  /** Every market, in id order. */
  list(): Market[];
  /** The market an id names as clients send it (number or string), or undefined. */
  find(id: string | number): Market | undefined;
  get(bookId: number): Market | undefined;
  /** Every token, in creation order, whether or not a book trades it. */
  tokens(): readonly TokenRecord[];
}
