import type {
  BookRecord,
  BookStatus,
  NewBook,
  NewToken,
  TokenListingChange,
  TokenRecord,
} from '../../domain/markets/market-records.js';
import type { Clock } from '../../ports/clock.js';
import type { BookStore, TokenStore } from '../../ports/store/ports.js';
import { seedDevnet } from './seed.js';

/**
 * The operator's side of the token registry and the books: listing, adding and changing them, and
 * the devnet's markets in an empty store. The running service picks the changes up from the store.
 */
export class MarketListings {
  constructor(
    private readonly store: { readonly tokens: TokenStore; readonly books: BookStore },
    private readonly clock: Clock,
  ) {}

  tokens(): Promise<TokenRecord[]> {
    return this.store.tokens.list();
  }

  /** Throws StoreConflictError on a taken id or address. */
  addToken(token: NewToken): Promise<TokenRecord> {
    return this.store.tokens.insert(token, this.clock.now());
  }

  /** The token with its listing changed; undefined when there is no such token. */
  updateToken(id: string, change: TokenListingChange): Promise<TokenRecord | undefined> {
    return this.store.tokens.update(id, change, this.clock.now());
  }

  books(): Promise<BookRecord[]> {
    return this.store.books.list();
  }

  addBook(book: NewBook): Promise<BookRecord> {
    return this.store.books.insert(book, this.clock.now());
  }

  /** Opens, closes, halts or resumes a book; undefined when there is no such book. */
  changeBook(id: number, change: { status?: BookStatus; isHalted?: boolean }): Promise<BookRecord | undefined> {
    return this.store.books.update(id, change, this.clock.now());
  }

  /** Creates the devnet's markets in an empty store; false, and nothing done, when it has any token. */
  seedDevnet(): Promise<boolean> {
    return seedDevnet(this.store, this.clock.now());
  }
}
