import type { FeeOverride } from '../../domain/markets/market-records.js';
import type { OrderEventRecord, OrderRecord, OrderState, StoredTurnIds, TurnWrite } from '../../domain/orders/order-records.js';

/**
 * Persistence of orders, their history, the nonces handed out by /orders/build and the fee
 * overrides of accounts. What engine turns change is written by `commitTurns` in a single
 * transaction, so a crash leaves either all of those turns or none of them.
 */

/** An order of a listing, with the sequence of its latest event (how many events it has had). */
export interface ListedOrder extends OrderRecord {
  readonly sequence: number;
}

export interface OrderQuery {
  readonly account: string;
  readonly statuses: readonly OrderState[] | null;
  readonly bookId: number | null;
  readonly offset: number;
  readonly limit: number;
}

export interface OrderStore {
  /**
   * Stores the turns, in order, in one transaction; answers the ids of each turn's rows. With
   * them, the position in its shard's command log of the last command each shard applied
   * (positions never go back).
   */
  commitTurns(turns: readonly TurnWrite[], positions?: ReadonlyMap<number, bigint>): Promise<StoredTurnIds[]>;
  /** The position of the last command of its log the shard applied, 0 when none. */
  commandPosition(shard: number): Promise<bigint>;
  /** Orders resting on a book (open and not waiting for a confirmed cancellation), oldest first. */
  openOrders(): Promise<OrderRecord[]>;
  /** Highest order id in use, 0 when none. */
  maxOrderId(): Promise<number>;
  byHashes(hashes: readonly string[]): Promise<OrderRecord[]>;
  get(id: number): Promise<OrderRecord | undefined>;
  /** The book of each of `ids` that names a stored order, in one read. */
  booksOf(ids: readonly number[]): Promise<Map<number, number>>;
  page(query: OrderQuery): Promise<{ orders: ListedOrder[]; total: number }>;
  history(orderId: number): Promise<OrderEventRecord[]>;
  /** One page of the order's history, oldest first, and how many events it has in all. */
  historyPage(orderId: number, offset: number, limit: number): Promise<{ events: OrderEventRecord[]; total: number }>;
  /** Id of the account's latest history event, 0 when none. */
  lastEventId(account: string): Promise<number>;
  lastUpdateIds(): Promise<Map<number, number>>;
}

export interface NonceStore {
  /**
   * Hands out strictly increasing nonces for the account, one for each of `bookIds` (the book the
   * order is built for), each above its last nonce and at least `atLeast` and its nonce floor (so
   * a cancel/all never voids orders built after it), remembered until `expiresAt` (unix ms).
   * Throws NONCES_EXHAUSTED past the uint256 range.
   */
  issue(account: string, bookIds: readonly number[], atLeast: bigint, expiresAt: number): Promise<bigint[]>;
  /**
   * Those of `nonces` that were issued to the account and are not used by an order, each with the
   * book it was built for (null for nonces issued before books were recorded).
   */
  unused(account: string, nonces: readonly bigint[]): Promise<Map<bigint, number | null>>;
  /** The highest nonce ever issued to the account, 0 when none. */
  lastIssued(account: string): Promise<bigint>;
  /** Orders with a nonce below the floor are void (cancel/all); 0 when never set. */
  floor(account: string): Promise<bigint>;
  /** Forgets nonces past the deadline of their order: none can be saved any more (used ones stay unique in orders). */
  purgeExpired(now: number): Promise<number>;
}

export interface FeeOverrideStore {
  get(account: string, bookId: number): Promise<FeeOverride | undefined>;
  set(override: FeeOverride): Promise<void>;
  clear(account: string, bookId: number): Promise<boolean>;
  list(): Promise<FeeOverride[]>;
}
