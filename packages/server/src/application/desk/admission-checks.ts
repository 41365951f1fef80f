import { AppError } from '../../domain/errors.js';
import { type EngineShard, ownsBook } from '../../domain/markets/engine-shards.js';
import type { LiveOrders } from '../../domain/orders/live-orders.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { PendingWrites } from '../../domain/orders/pending-writes.js';
import type { Holding } from '../../ports/funds.js';
import type { OrderStore } from '../../ports/store/order-ports.js';
import type { Store } from '../../ports/store/ports.js';
import type { OrderCandidate } from './order-desk.js';

/** The shard of a desk that writes every book. */
export const EVERY_BOOK: EngineShard = { index: 0, count: 1 };

/** Most open orders one wallet may have (spec 8.2). */
export const MAX_OPEN_ORDERS_PER_ACCOUNT = 5_000;

/**
 * Deduplication, the idempotency of a save: the orders saved already among `hashes`, by hash. The
 * intake asks the store before it verifies; the desk asks again inside its turn, with the writes
 * of the open commit group (`pending`), where no other save can race.
 */
export async function savedByHash(
  orders: Pick<OrderStore, 'byHashes'>,
  hashes: readonly string[],
  pending?: PendingWrites,
): Promise<Map<string, OrderRecord>> {
  const saved = new Map((await orders.byHashes(hashes)).map((record) => [record.orderHash, record]));
  if (pending !== undefined) {
    for (const hash of hashes) {
      const order = pending.orderByHash(hash);
      if (order !== undefined) saved.set(hash, order);
    }
  }
  return saved;
}

/** The open-order cap: throws OPEN_ORDER_LIMIT when `adding` orders would take `open` past it. */
export function assertRoom(open: number, adding: number): void {
  if (open + adding > MAX_OPEN_ORDERS_PER_ACCOUNT) {
    throw new AppError(
      'OPEN_ORDER_LIMIT',
      `An account may have at most ${MAX_OPEN_ORDERS_PER_ACCOUNT} open orders; it has ${open} and the batch adds ${adding}`,
    );
  }
}

/**
 * The checks a batch passes inside the desk's turn, where no other save can race for the same
 * nonces or the same room: the order's book, the nonces and the risk checks (open-order cap, funds
 * reserved by open orders). They read the live orders and the store together with the open commit
 * group, so turns not stored yet count.
 */
export class AdmissionChecks {
  constructor(
    private readonly live: LiveOrders,
    private readonly store: Store,
    /** The open commit group: what earlier turns wrote that the store does not hold yet. */
    private readonly pending: () => PendingWrites,
    /** The books this desk writes: one shard of several, or every book. */
    private readonly shard: EngineShard = EVERY_BOOK,
  ) {}

  /** See {@link savedByHash}. */
  saved(hashes: readonly string[]): Promise<Map<string, OrderRecord>> {
    return savedByHash(this.store.orders, hashes, this.pending());
  }

  /**
   * Every item is on a book of this desk's shard. A gateway that counts the shards differently
   * would route books to the wrong engine, and two engines would write one book: refused, loudly.
   */
  assertOwnBooks(items: readonly OrderCandidate[]): void {
    const { index, count } = this.shard;
    const stray = items.find((item) => !ownsBook(item.fields.bookId, index, count));
    if (stray !== undefined) {
      throw new AppError('INTERNAL', `book ${stray.fields.bookId} is not one of shard ${index} of ${count}: check ENGINE_SHARDS`);
    }
  }

  /** Throws OPEN_ORDER_LIMIT when `adding` more orders would take the account past the cap. */
  assertRoomFor(account: string, adding: number): void {
    assertRoom(this.live.countOf(account), adding);
  }

  /**
   * The reservation of a risk engine: the account's balance and reactor allowance of each token
   * must cover what all its open orders may still spend plus what the new ones may spend.
   */
  assertCovered(account: string, fresh: readonly OrderCandidate[], holdings: ReadonlyMap<string, Holding>): void {
    const needed = new Map<string, bigint>();
    const add = (token: string, amount: bigint) => needed.set(token, (needed.get(token) ?? 0n) + amount);
    for (const item of fresh) add(item.signed.inputToken, item.signed.inputAmount);
    for (const order of this.live.ofAccount(account)) {
      if (needed.has(order.inputToken)) add(order.inputToken, order.inputAmount - order.filledInput);
    }
    for (const [token, amount] of needed) {
      const holding = holdings.get(token) ?? { balance: 0n, allowance: 0n };
      if (holding.balance < amount || holding.allowance < amount) {
        throw new AppError(
          'INSUFFICIENT_FUNDS',
          `Open orders of this account would spend ${amount} of token ${token}; its balance is ${holding.balance} and the reactor may move ${holding.allowance}`,
        );
      }
    }
  }

  /** Each nonce was issued to the account by /orders/build, is not used, is above the floor, and appears once. */
  async checkNonces(account: string, items: readonly OrderCandidate[]): Promise<void> {
    const pending = this.pending();
    const nonces = items.map((item) => item.fields.nonce);
    const stored = await this.store.nonces.floor(account);
    const floor = stored > pending.floor(account) ? stored : pending.floor(account);
    const unused = nonces.length === 0 ? new Map<bigint, number | null>() : await this.store.nonces.unused(account, nonces);
    const seen = new Set<bigint>();
    for (const { index, fields } of items) {
      const { nonce } = fields;
      if (nonce < floor) throw AppError.atItem(index, 'items', 'NONCE_BELOW_FLOOR');
      if (!unused.has(nonce) || seen.has(nonce) || pending.isNonceUsed(account, nonce)) {
        throw AppError.atItem(index, 'items', 'NONCE_NOT_ISSUED');
      }
      // Engines of other shards check nonces apart: each takes only those built for its own books.
      const builtFor = unused.get(nonce) ?? null;
      if (builtFor !== null && !ownsBook(builtFor, this.shard.index, this.shard.count)) {
        throw AppError.atItem(
          index,
          'items',
          'NONCE_NOT_ISSUED',
          `the nonce was built for order book ${builtFor}, whose orders another engine keeps; build the order for this book`,
        );
      }
      seen.add(nonce);
    }
  }
}
