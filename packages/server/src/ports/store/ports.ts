import type { AccountKeyRecord } from '../../domain/accounts/account-keys.js';
import type {
  BookRecord,
  BookStatus,
  NewBook,
  NewToken,
  TokenListingChange,
  TokenRecord,
} from '../../domain/markets/market-records.js';
import type { NewTrade, TradeRecord } from '../../domain/orders/trade-records.js';
import type { AmmStore, PoolCandleStore, StakingStore } from './amm-ports.js';
import type { ApiKeyStore } from './api-key-ports.js';
import type { CancelAfterStore } from './cancel-after-ports.js';
import type { CandleStore } from './candle-ports.js';
import type { ExpiredOrderStore } from './expired-order-ports.js';
import type { FeeOverrideStore, NonceStore, OrderStore } from './order-ports.js';
import type { FarmStore, PoolStore } from './pool-ports.js';
import type { CancellationStore, SettlementStore } from './settlement-ports.js';
import type { SettlementProofStore } from './settlement-proof-ports.js';
import type { TermsAcceptanceStore } from './terms-ports.js';

export interface TradePage {
  readonly trades: readonly TradeRecord[];
  readonly total: number;
}

/** Trading activity of a book over a window, from the 5-minute candles. */
export interface TradeWindowStats {
  /** Price of the first trade in the window. */
  readonly openTicks: bigint | null;
  readonly highTicks: bigint | null;
  readonly lowTicks: bigint | null;
  readonly baseVolume: bigint;
  readonly quoteVolume: bigint;
  readonly tradeCount: number;
}

export interface TokenStore {
  list(): Promise<TokenRecord[]>;
  insert(token: NewToken, now: number): Promise<TokenRecord>;
  /** Returns the updated token, or undefined when no such token exists. */
  update(id: string, change: TokenListingChange, now: number): Promise<TokenRecord | undefined>;
}

export interface BookStore {
  list(): Promise<BookRecord[]>;
  insert(book: NewBook, now: number): Promise<BookRecord>;
  /** Returns the updated book, or undefined when no such book exists. */
  update(id: number, change: { status?: BookStatus; isHalted?: boolean }, now: number): Promise<BookRecord | undefined>;
}

export interface TradeStore {
  /** Appends trades in order, in one transaction, and folds them into the candles. */
  append(trades: readonly NewTrade[]): Promise<void>;
  page(bookId: number, order: 'asc' | 'desc', offset: number, limit: number): Promise<TradePage>;
  latest(bookId: number): Promise<TradeRecord | undefined>;
  /** Activity since `since` (unix ms, rounded down to the 5-minute candle that holds it). */
  windowStats(bookId: number, since: number): Promise<TradeWindowStats>;
  /** The highest trade id handed out or skipped (see skipIdsThrough), reverted trades included; 0 for none. */
  highestId(): Promise<number>;
  /**
   * Never hands out a trade id at or below `id` from now on, kept across restarts: ids already
   * used elsewhere (the chain's settled fill ids, which are trade ids) are not given again. A
   * floor at or below the highest id changes nothing.
   */
  skipIdsThrough(id: number): Promise<void>;
}

export interface Store {
  readonly tokens: TokenStore;
  readonly books: BookStore;
  readonly trades: TradeStore;
  readonly orders: OrderStore;
  readonly nonces: NonceStore;
  readonly feeOverrides: FeeOverrideStore;
  readonly accountKeys: AccountKeyStore;
  readonly settlements: SettlementStore;
  readonly cancellations: CancellationStore;
  readonly expiredOrders: ExpiredOrderStore;
  readonly apiKeys: ApiKeyStore;
  readonly candles: CandleStore;
  readonly pools: PoolStore;
  readonly farms: FarmStore;
  /** What the AMM indexer writes: pools, farms and staking from the chain. */
  readonly amm: AmmStore;
  readonly poolCandles: PoolCandleStore;
  readonly staking: StakingStore;
  readonly cancelAfter: CancelAfterStore;
  readonly settlementProofs: SettlementProofStore;
  /** The web application's record of accepted terms (never asked by an API route). */
  readonly termsAcceptances: TermsAcceptanceStore;
  /** Changes whenever another process (the operator CLI) commits; lets caches know to reload. */
  changeMarker(): Promise<number>;
  /** Proves the store answers (health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

// The store's errors, for its implementers and callers (see ports/store-errors.ts).
export { StoreConflictError, StoreUnavailableError } from '../store-errors.js';

export interface AccountKeyStore {
  get(accountId: string): Promise<AccountKeyRecord | undefined>;
  /** Throws StoreConflictError on a duplicate id or EVM address. */
  insert(record: Omit<AccountKeyRecord, 'createdAt'>, now: number): Promise<AccountKeyRecord>;
  list(): Promise<AccountKeyRecord[]>;
  /** Highest account number in use (for allocating the next devnet id), 0 when none. */
  maxAccountNumber(): Promise<number>;
}
