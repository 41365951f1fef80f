import type { CancelReason, PlaceOrder, RejectReason, Side } from '../book/types.js';

/** A fill as the reference book reports it. */
export interface ReferenceFill {
  makerId: number;
  takerId: number;
  price: bigint;
  quantity: number;
}

interface ReferenceOrder {
  id: number;
  side: Side;
  price: bigint;
  quantity: number;
  remaining: number;
  owner?: string | undefined;
  sequence: number;
}

/**
 * A deliberately simple order book: one flat array, sorted afresh for every match, with
 * self-trade prevention applied to the best crossing order as it comes. Slow and obviously right;
 * the fast engine is checked against it on random flows.
 */
export class ReferenceBook {
  orders: ReferenceOrder[] = [];
  fills: ReferenceFill[] = [];
  /** Orders self-trade prevention cancelled, in order. */
  selfTrades: number[] = [];
  halted = false;
  private sequence = 0;

  place(order: PlaceOrder): RejectReason | 'ACCEPTED' {
    if (this.orders.some((resting) => resting.id === order.id)) return 'DUPLICATE_ID';
    if (this.halted) return 'MARKET_HALTED';
    const crossing = (resting: ReferenceOrder): boolean =>
      resting.side !== order.side && (order.side === 0 ? resting.price <= order.price : resting.price >= order.price);
    if (order.makerOnly && this.orders.some(crossing)) return 'WOULD_TAKE';

    let remaining = order.quantity;
    let fills = 0;
    let expired = false;
    while (remaining > 0 && !(order.takerOnce && fills === 1)) {
      const candidates = this.orders.filter(crossing);
      if (candidates.length === 0) break;
      candidates.sort((a, b) =>
        a.price !== b.price ? ((order.side === 0 ? a.price < b.price : a.price > b.price) ? -1 : 1) : a.sequence - b.sequence,
      );
      const maker = candidates[0] as ReferenceOrder;
      if (order.owner !== undefined && maker.owner === order.owner) {
        const mode = order.selfTradePrevention ?? 'EXPIRE_MAKER';
        if (mode !== 'EXPIRE_TAKER') {
          this.orders = this.orders.filter((resting) => resting !== maker);
          this.selfTrades.push(maker.id);
        }
        if (mode !== 'EXPIRE_MAKER') {
          expired = true;
          this.selfTrades.push(order.id);
          break;
        }
        continue;
      }
      const quantity = Math.min(maker.remaining, remaining);
      maker.remaining -= quantity;
      remaining -= quantity;
      fills++;
      this.fills.push({ makerId: maker.id, takerId: order.id, price: maker.price, quantity });
      if (maker.remaining === 0) this.orders = this.orders.filter((resting) => resting !== maker);
    }
    const stillCrosses = this.orders.some(crossing);
    const rests = remaining > 0 && !expired && order.timeInForce === 'GTC' && !(order.takerOnce && fills > 0 && stillCrosses);
    if (rests) {
      this.orders.push({ ...order, remaining, sequence: this.sequence++ });
    }
    return 'ACCEPTED';
  }

  cancel(id: number, _reason: CancelReason): boolean {
    const before = this.orders.length;
    this.orders = this.orders.filter((order) => order.id !== id);
    return this.orders.length < before;
  }

  /** Aggregated levels, best first, as [price, quantity]. */
  depth(side: Side): [bigint, number][] {
    const totals = new Map<bigint, number>();
    for (const order of this.orders) {
      if (order.side === side) totals.set(order.price, (totals.get(order.price) ?? 0) + order.remaining);
    }
    return [...totals].sort((a, b) => ((side === 0 ? b[0] > a[0] : a[0] > b[0]) ? 1 : -1));
  }
}
