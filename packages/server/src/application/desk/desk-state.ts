import type { EngineShard } from '../../domain/markets/engine-shards.js';
import { ownsBook } from '../../domain/markets/engine-shards.js';
import { OrderIds } from '../../domain/orders/order-ids.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { Store } from '../../ports/store/ports.js';
import type { MarketRegistry } from '../markets/market-registry.js';
import { DeskBooks } from './desk-books.js';
import { DeskPools } from './desk-pools.js';
import type { EngineHost } from './engine-host.js';

/** The stored open orders of the shard's books. */
async function openOrdersOf(store: Store, shard: EngineShard): Promise<OrderRecord[]> {
  const open = await store.orders.openOrders();
  return shard.count === 1 ? open : open.filter((order) => ownsBook(order.bookId, shard.index, shard.count));
}

/** What the books are rebuilt from: the highest order id, each book's update id, the shard's open orders. */
function readBooks(store: Store, shard: EngineShard) {
  return Promise.all([store.orders.maxOrderId(), store.orders.lastUpdateIds(), openOrdersOf(store, shard)]);
}

/**
 * What the desk holds in memory between turns, as the store holds it at the start: the books (live
 * orders and their engines), the pools' snapshots and the next order id. After a failed commit
 * the sequencer reloads it, dropping what the failed turns did in memory.
 */
export class DeskState {
  private constructor(
    readonly books: DeskBooks,
    readonly pools: DeskPools,
    readonly ids: OrderIds,
    private readonly store: Store,
    private readonly shard: EngineShard,
  ) {}

  /** Rebuilds every book from the stored open orders, oldest first, and starts the engines. */
  static async load(registry: MarketRegistry, engines: EngineHost, store: Store, shard: EngineShard): Promise<DeskState> {
    const books = new DeskBooks(registry, engines);
    const pools = new DeskPools(registry, engines);
    const [[lastId, updateIds, open], swaps] = await Promise.all([readBooks(store, shard), store.settlements.unsettledSwaps()]);
    books.recover(open, updateIds);
    pools.restore(swaps);
    return new DeskState(books, pools, new OrderIds(lastId, shard.index, shard.count), store, shard);
  }

  /**
   * After a failed commit: the books, the next order id and the pool snapshots as the store holds
   * them (what was answered), dropping what the failed turns did in memory.
   */
  async reload(): Promise<void> {
    const [lastId, updateIds, open] = await readBooks(this.store, this.shard);
    this.pools.forgetUnstored();
    this.books.recover(open, updateIds);
    this.ids.continueAfter(lastId);
  }
}
