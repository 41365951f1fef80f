import { MarketGrid } from '@dex/core';
import type { BookRecord, Store, TokenRecord } from '../store/ports.js';

/** A book with its two tokens and its parsed grid: everything needed to price and display it. */
export interface Market {
  readonly book: BookRecord;
  readonly base: TokenRecord;
  readonly quote: TokenRecord;
  readonly grid: MarketGrid;
}

function gridOf(book: BookRecord, base: TokenRecord, quote: TokenRecord): MarketGrid {
  return new MarketGrid({
    baseDecimals: base.decimals,
    quoteDecimals: quote.decimals,
    tickStep: book.tickStep,
    sizeStep: book.sizeStep,
    lotSize: book.lotSize,
    minNotional: book.minNotional,
  });
}

/** Book ids are positive integers written without leading zeros; anything else names no book. */
const BOOK_ID = /^[1-9][0-9]{0,14}$/;

/** A book id from a path segment or a request field (number or string), or undefined when it cannot name a book. */
export function parseBookId(value: string | number): number | undefined {
  const text = String(value);
  return BOOK_ID.test(text) ? Number(text) : undefined;
}

/** Whether a reload left the parts of a book that engines follow untouched. */
function sameState(before: BookRecord | undefined, after: BookRecord): boolean {
  return (
    before !== undefined &&
    before.status === after.status &&
    before.isHalted === after.isHalted &&
    before.updatedAt === after.updatedAt
  );
}

/**
 * In-memory view of the token and book registry. The operator CLI writes to the store from
 * another process; `refresh()` reloads when the store reports a change, and tells listeners which
 * markets changed so the engines can follow (halt, resume, close, new book).
 */
export class MarketRegistry {
  private markets = new Map<number, Market>();
  private tokenList: readonly TokenRecord[] = [];
  private marker: number | undefined;
  private readonly listeners: ((markets: readonly Market[]) => void)[] = [];

  constructor(private readonly store: Store) {}

  /** Loads everything now. */
  async load(): Promise<void> {
    this.marker = await this.store.changeMarker();
    const [tokens, books] = await Promise.all([this.store.tokens.list(), this.store.books.list()]);
    const tokenMap = new Map(tokens.map((token) => [token.id, token]));
    const markets = new Map<number, Market>();
    for (const book of books) {
      const base = tokenMap.get(book.baseTokenId);
      const quote = tokenMap.get(book.quoteTokenId);
      if (base === undefined || quote === undefined) continue; // foreign keys make this unreachable
      markets.set(book.id, { book, base, quote, grid: gridOf(book, base, quote) });
    }
    const changed = [...markets.values()].filter((market) => !sameState(this.markets.get(market.book.id)?.book, market.book));
    this.markets = markets;
    this.tokenList = tokens;
    if (changed.length > 0) for (const listener of this.listeners) listener(changed);
  }

  /** Reloads when another process changed the store since the last load. */
  async refresh(): Promise<boolean> {
    if ((await this.store.changeMarker()) === this.marker) return false;
    await this.load();
    return true;
  }

  /** Called with the markets that are new or changed after each load. */
  onChange(listener: (markets: readonly Market[]) => void): void {
    this.listeners.push(listener);
  }

  /** Every market, in id order. */
  list(): Market[] {
    return [...this.markets.values()];
  }

  /** The market an id names as clients send it (number or string), or undefined. */
  find(id: string | number): Market | undefined {
    const bookId = parseBookId(id);
    return bookId === undefined ? undefined : this.markets.get(bookId);
  }

  get(bookId: number): Market | undefined {
    return this.markets.get(bookId);
  }

  /** Every token, in creation order, whether or not a book trades it. */
  tokens(): readonly TokenRecord[] {
    return this.tokenList;
  }
}
