import { DepthChanges } from './depth-changes.js';
import type { CommittedOrderEvent, CommittedTrade, DeskCommit } from './desk-commit.js';
import type { FillDetail, OrderRecord, StoredTurnIds, TurnFill, TurnWrite } from './order-records.js';
import type { TurnPublication } from './order-turn.js';

function stored<T>(values: readonly T[], index: number, what: string): T {
  const value = values[index];
  if (value === undefined) throw new Error(`the store answered no ${what} for row ${index} of a turn`);
  return value;
}

/** A history event's fill with its trade's stored id: a fill of the turn is found by its index. */
function committedFill(fill: TurnFill | FillDetail | null, turnTrades: readonly CommittedTrade[]): FillDetail | null {
  if (fill === null || !('tradeIndex' in fill)) return fill;
  const trade = stored(turnTrades, fill.tradeIndex, 'trade');
  return { tradeId: trade.id, price: trade.price, baseAmount: trade.baseAmount, quoteAmount: trade.quoteAmount, role: fill.role };
}

/**
 * Turns that ran but whose writes are not stored yet: a commit group. The desk stores a group in
 * one transaction (one fsync for several requests) and answers its requests only after that.
 * Until then the next turns of the group must still see what earlier ones did, so this also
 * answers for the pending writes the questions turns ask the store: which orders exist (by hash
 * and id), which nonces are used, what the nonce floors are. Once stored, it describes what it
 * changed for the desk's publication.
 */
export class PendingWrites {
  readonly writes: TurnWrite[] = [];
  private readonly publications: TurnPublication[] = [];
  private readonly byHash = new Map<string, OrderRecord>();
  private readonly byId = new Map<number, OrderRecord>();
  private readonly usedNonces = new Map<string, Set<bigint>>();
  private readonly floors = new Map<string, bigint>();
  /** By shard, the position in its command log of the last command the group's turns applied. */
  readonly positions = new Map<number, bigint>();
  private orderCount = 0;

  add(write: TurnWrite, publication: TurnPublication): void {
    this.writes.push(write);
    this.publications.push(publication);
    this.orderCount += write.newOrders.length;
    for (const order of write.newOrders) {
      this.byHash.set(order.orderHash, order);
      this.byId.set(order.id, order);
      let nonces = this.usedNonces.get(order.account);
      if (nonces === undefined) {
        nonces = new Set();
        this.usedNonces.set(order.account, nonces);
      }
      nonces.add(order.nonce);
    }
    for (const [id, progress] of write.progress) {
      const order = this.byId.get(id);
      if (order === undefined) continue;
      const updated = { ...order, ...progress };
      this.byId.set(id, updated);
      this.byHash.set(order.orderHash, updated);
    }
    for (const [account, floor] of write.nonceFloors)
      if (floor > (this.floors.get(account) ?? 0n)) this.floors.set(account, floor);
  }

  /** A command of the shard's log was applied (or refused: that is its answer too) in this group. */
  advance(shard: number, seq: bigint): void {
    if (seq > (this.positions.get(shard) ?? 0n)) this.positions.set(shard, seq);
  }

  /** Nothing to store: no turn and no command position. */
  get isEmpty(): boolean {
    return this.writes.length === 0 && this.positions.size === 0;
  }

  /** Orders the group created, as of its latest turn. */
  order(id: number): OrderRecord | undefined {
    return this.byId.get(id);
  }

  orderByHash(hash: string): OrderRecord | undefined {
    return this.byHash.get(hash);
  }

  isNonceUsed(account: string, nonce: bigint): boolean {
    return this.usedNonces.get(account)?.has(nonce) ?? false;
  }

  floor(account: string): bigint {
    return this.floors.get(account) ?? 0n;
  }

  /** New orders in the group: bounds how much one commit carries. */
  get size(): number {
    return this.orderCount;
  }

  /** What the group changed, given the ids the store gave each turn's rows (in turn order). */
  committed(ids: readonly StoredTurnIds[]): DeskCommit {
    const depth = new DepthChanges();
    const orderEvents: CommittedOrderEvent[] = [];
    const trades: CommittedTrade[] = [];
    this.writes.forEach((write, turn) => {
      const { events, tradeIds } = stored(ids, turn, 'ids');
      const publication = stored(this.publications, turn, 'publication');
      const turnTrades = write.trades.map((trade, index) => ({ ...trade, id: stored(tradeIds, index, 'trade id') }));
      for (const trade of turnTrades) trades.push(trade);
      publication.orderEvents.forEach((event, index) => {
        orderEvents.push({
          ...stored(events, index, 'event id'),
          orderId: event.orderId,
          account: event.account,
          bookId: event.bookId,
          type: event.type,
          timestamp: event.timestamp,
          // A cancellation made final by the reactor carries its transaction, as in the history.
          txHash: event.txHash ?? null,
          reason: event.reason,
          filledSteps: event.filledSteps,
          status: event.status,
          order: event.order,
          fill: committedFill(event.fill, turnTrades),
        });
      });
      for (const { bookId, event } of publication.depthUpdates) depth.add(bookId, event);
    });
    return { depth: depth.list(), orderEvents, trades };
  }
}
