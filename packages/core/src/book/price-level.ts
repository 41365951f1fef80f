import { NONE, type OrderSlots } from './order-slots.js';
import type { Side } from './types.js';

/** All resting orders at one price, oldest first (time priority), with their total quantity. */
export class PriceLevel {
  head = NONE;
  tail = NONE;
  total = 0;
  count = 0;

  constructor(
    readonly side: Side,
    readonly price: bigint,
  ) {}

  append(slots: OrderSlots, slot: number): void {
    slots.setPrev(slot, this.tail);
    slots.setNext(slot, NONE);
    if (this.tail !== NONE) slots.setNext(this.tail, slot);
    else this.head = slot;
    this.tail = slot;
    this.total += slots.remaining(slot);
    this.count++;
  }

  /** Unlinks an order in O(1); its remaining quantity leaves the level total. */
  remove(slots: OrderSlots, slot: number): void {
    const prev = slots.prev(slot);
    const next = slots.next(slot);
    if (prev !== NONE) slots.setNext(prev, next);
    else this.head = next;
    if (next !== NONE) slots.setPrev(next, prev);
    else this.tail = prev;
    this.total -= slots.remaining(slot);
    this.count--;
  }
}
