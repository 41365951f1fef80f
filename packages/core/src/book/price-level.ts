import type { Side } from './types.js';

/** A resting order, linked into its price level so that a cancel unlinks it in O(1). */
export class RestingOrder {
  prev: RestingOrder | null = null;
  next: RestingOrder | null = null;

  constructor(
    readonly id: number,
    readonly side: Side,
    readonly price: number,
    /** Original quantity in size steps. */
    readonly quantity: number,
    /** Quantity still open, in size steps. */
    public remaining: number,
    public level: PriceLevel,
  ) {}
}

/** All resting orders at one price, oldest first (time priority), with their total quantity. */
export class PriceLevel {
  head: RestingOrder | null = null;
  tail: RestingOrder | null = null;
  total = 0;
  count = 0;

  constructor(readonly price: number) {}

  append(order: RestingOrder): void {
    order.prev = this.tail;
    order.next = null;
    if (this.tail) this.tail.next = order;
    else this.head = order;
    this.tail = order;
    this.total += order.remaining;
    this.count++;
  }

  /** Unlinks an order; its remaining quantity leaves the level total. */
  remove(order: RestingOrder): void {
    if (order.prev) order.prev.next = order.next;
    else this.head = order.next;
    if (order.next) order.next.prev = order.prev;
    else this.tail = order.prev;
    order.prev = null;
    order.next = null;
    this.total -= order.remaining;
    this.count--;
  }
}
