import { gridSpecOfDisplay, MarketGrid } from '@dex/core';
import type { BookRecord, TokenRecord } from './market-records.js';

/** A book with its two tokens and its parsed grid: everything needed to price and display it. */
export interface Market {
  readonly book: BookRecord;
  readonly base: TokenRecord;
  readonly quote: TokenRecord;
  readonly grid: MarketGrid;
  /**
   * The lower-case token addresses its signed orders carry and the reactor moves: each token's own,
   * except the native coin's, which settles as the chain's wrapped native token (docs/settlement.md,
   * "Native-coin books"); the zero address while the chain names none.
   */
  readonly settlement: { readonly base: string; readonly quote: string };
}

/** The ledger id the native coin is listed under, as the live service lists HBAR. */
export const NATIVE_COIN_ID = '0.0.0';

/** The native coin's EVM address as the ledger lists it (id `0.0.0`): the zero address. */
export const NATIVE_COIN_ADDRESS = '0x0000000000000000000000000000000000000000';

/** Whether a token is the chain's native coin rather than a token contract. */
export function isNativeCoin(token: Pick<TokenRecord, 'evmAddress'>): boolean {
  return token.evmAddress.toLowerCase() === NATIVE_COIN_ADDRESS;
}

/**
 * A book with its tokens and the grid they make; `wrappedNative` is the token a native-coin side
 * settles in on this chain (null: none).
 */
export function marketOf(book: BookRecord, base: TokenRecord, quote: TokenRecord, wrappedNative: string | null = null): Market {
  const settlementOf = (token: TokenRecord) =>
    isNativeCoin(token) ? (wrappedNative ?? NATIVE_COIN_ADDRESS).toLowerCase() : token.evmAddress.toLowerCase();
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
  return { book, base, quote, grid, settlement: { base: settlementOf(base), quote: settlementOf(quote) } };
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
