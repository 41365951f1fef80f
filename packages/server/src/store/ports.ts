import type { ApiKeyStore } from './api-key-ports.js';
import type { CandleStore } from './candle-ports.js';
import type { FeeOverrideStore, NonceStore, OrderStore } from './order-ports.js';
import type { FarmStore, PoolStore } from './pool-ports.js';
import type { CancellationStore, SettlementStore } from './settlement-ports.js';

/**
 * What the service needs from persistence. The embedded default implements it on SQLite; a
 * PostgreSQL adapter implements the same interface for the scale-out deployment. Methods are
 * async even where SQLite is synchronous so that both adapters fit.
 */

export interface TokenRecord {
  /** Ledger id, `0.0.X`. */
  readonly id: string;
  /** Lower-case 0x address. */
  readonly evmAddress: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  readonly icon: string | null;
  readonly description: string | null;
  readonly website: string | null;
  readonly dueDiligenceComplete: boolean;
  readonly isFeeOnTransfer: boolean;
  readonly sentinelReport: string | null;
  readonly twitterHandle: string | null;
  /** Raw units in circulation as the operator recorded them, or null when unknown. */
  readonly circulatingSupply: bigint | null;
  /** On the data API's curated lists `/tokens/known` and `/tokens/default`. */
  readonly isKnown: boolean;
  readonly isDefault: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type NewToken = Omit<TokenRecord, 'createdAt' | 'updatedAt'>;

/** The listing fields of a token the operator may change after it was added. */
export type TokenListingChange = Partial<
  Pick<
    TokenRecord,
    | 'icon'
    | 'description'
    | 'website'
    | 'dueDiligenceComplete'
    | 'isFeeOnTransfer'
    | 'sentinelReport'
    | 'twitterHandle'
    | 'circulatingSupply'
    | 'isKnown'
    | 'isDefault'
  >
>;

export type BookStatus = 'OPEN' | 'CLOSED';

export interface BookRecord {
  readonly id: number;
  readonly baseTokenId: string;
  readonly quoteTokenId: string;
  readonly status: BookStatus;
  readonly isAmmEnabled: boolean;
  readonly isHalted: boolean;
  readonly tickStep: string;
  readonly sizeStep: string;
  readonly lotSize: string;
  readonly minNotional: string;
  readonly takerFeePips: number;
  readonly makerFeePips: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type NewBook = Omit<BookRecord, 'id' | 'createdAt' | 'updatedAt' | 'status' | 'isHalted'>;

export type TakerDirection = 'buy' | 'sell';

export interface NewTrade {
  readonly bookId: number;
  readonly executedAt: number;
  readonly priceTicks: number;
  /** Display price, quote per base. */
  readonly price: string;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
  readonly direction: TakerDirection;
  readonly makerOrderId: number;
  readonly takerOrderId: number;
}

export interface TradeRecord extends NewTrade {
  readonly id: number;
  /** Settlement transaction, known once the trade settles on-chain. */
  readonly transactionHash: string | null;
}

export interface TradePage {
  readonly trades: readonly TradeRecord[];
  readonly total: number;
}

/** Trading activity of a book over a window, from the 5-minute candles. */
export interface TradeWindowStats {
  /** Price of the first trade in the window. */
  readonly openTicks: number | null;
  readonly highTicks: number | null;
  readonly lowTicks: number | null;
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
  readonly apiKeys: ApiKeyStore;
  readonly candles: CandleStore;
  readonly pools: PoolStore;
  readonly farms: FarmStore;
  /** Changes whenever another process (the operator CLI) commits; lets caches know to reload. */
  changeMarker(): Promise<number>;
  /** Proves the store answers (health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A uniqueness or reference rule of the store was broken; `message` says which. */
export class StoreConflictError extends Error {
  override readonly name = 'StoreConflictError';
}

/** The public key a devnet account `0.0.X` signs with (production reads keys from the mirror node). */
export interface AccountKeyRecord {
  accountId: string;
  keyType: 'ED25519' | 'ECDSA_SECP256K1';
  /** Lower-case hex, no 0x; secp256k1 keys compressed. */
  publicKey: string;
  evmAddress: string;
  createdAt: number;
}

export interface AccountKeyStore {
  get(accountId: string): Promise<AccountKeyRecord | undefined>;
  /** Throws StoreConflictError on a duplicate id or EVM address. */
  insert(record: Omit<AccountKeyRecord, 'createdAt'>, now: number): Promise<AccountKeyRecord>;
  list(): Promise<AccountKeyRecord[]>;
  /** Highest account number in use (for allocating the next devnet id), 0 when none. */
  maxAccountNumber(): Promise<number>;
}
