import { type Market, type MarketLookup, marketOf, parseBookId } from '../../domain/markets/market.js';
import type { BookRecord, TokenRecord } from '../../domain/markets/market-records.js';
import type { Store } from '../../ports/store/ports.js';

export type { Market } from '../../domain/markets/market.js';

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
export class MarketRegistry implements MarketLookup {
  private markets = new Map<number, Market>();
  private tokenList: readonly TokenRecord[] = [];
  private marker: number | undefined;
  private readonly listeners: ((markets: readonly Market[]) => void)[] = [];

  /** `wrappedNative`: the token the chain settles native-coin books in (config WRAPPED_NATIVE_ADDRESS), null: none. */
  constructor(
    private readonly store: Store,
    private readonly wrappedNative: string | null = null,
  ) {}

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
      markets.set(book.id, marketOf(book, base, quote, this.wrappedNative));
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
