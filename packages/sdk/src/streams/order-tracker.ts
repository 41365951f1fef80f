import type { OrderStatus } from '../order-types.js';
import { decimalKey } from './decimal-key.js';
import type { UserEvent } from './messages.js';

/** An open order as a user-event stream keeps it. */
export interface TrackedOrder {
  readonly orderId: number;
  /** The book's id as a decimal string, as the API sends it. */
  readonly orderbookId: string;
  /** `ACTIVE` or `PARTIALLY_FILLED`: an order that ends leaves the tracker. */
  readonly status: OrderStatus;
  /** Base amount filled, display units. */
  readonly filledAmount: string;
}

interface Entry extends TrackedOrder {
  /** No event up to this id can tell anything new about the order. */
  readonly lastEventId: number;
}

/**
 * An order moves forward (ACTIVE, then PARTIALLY_FILLED, then one final status) except when a fill
 * is given back (ORDER_FILL_REVERTED): then its filled amount falls and it may be open again.
 */
const RANK: Readonly<Record<OrderStatus, number>> = {
  ACTIVE: 0,
  PARTIALLY_FILLED: 1,
  FILLED: 2,
  CANCELED: 2,
  EXPIRED: 2,
  REJECTED: 2,
};

const isOpen = (status: OrderStatus): boolean => RANK[status] < 2;

/**
 * Whether a state is past another. Between reverted fills the filled amount never falls and the
 * status never goes back, and every event moves at least one of them: so an event whose state is
 * not past the known one is already reflected in it.
 */
function isPast(
  state: Pick<TrackedOrder, 'status' | 'filledAmount'>,
  known: Pick<TrackedOrder, 'status' | 'filledAmount'>,
): boolean {
  const filled = decimalKey(state.filledAmount, 'filled amount');
  const knownFilled = decimalKey(known.filledAmount, 'filled amount');
  return filled > knownFilled || (filled === knownFilled && RANK[state.status] > RANK[known.status]);
}

/**
 * The account's open orders, kept from a listing (`GET /orders`) and the events after it. It
 * decides which events are news: an event of a known order is news when its id is above what the
 * order's state reflects and its state is past it; an event of an unknown order when its id is
 * above every event already accounted for. So a listing that already reflects an event (the
 * listing is read after its `lastUpdateId`), an event replayed from a history and received live
 * too, or an event the stream buffered before the listing, are each told once.
 */
export class OrderTracker {
  readonly #open = new Map<number, Entry>();
  /** Every event of the account up to this id is accounted for. */
  #seenUpTo = 0;
  #started = false;

  /** Whether a first listing was taken. */
  get started(): boolean {
    return this.#started;
  }

  /** The open orders, by id. */
  orders(): ReadonlyMap<number, TrackedOrder> {
    return new Map(
      [...this.#open].map(([id, { orderId, orderbookId, status, filledAmount }]) => [
        id,
        { orderId, orderbookId, status, filledAmount },
      ]),
    );
  }

  /** Starts over from a listing of the open orders that reflects at least event `lastUpdateId`. */
  start(orders: readonly TrackedOrder[], lastUpdateId: number): void {
    this.#open.clear();
    for (const order of orders) this.#track(order, lastUpdateId);
    this.#seenUpTo = lastUpdateId;
    this.#started = true;
  }

  /**
   * The orders a new listing shows to have moved while events could have been missed: known ones
   * whose state differs or that are no longer open, and open ones not known. Their histories hold
   * the events to replay.
   */
  movedIn(orders: readonly TrackedOrder[]): number[] {
    const listed = new Map(orders.map((order) => [order.orderId, order]));
    // A listing is newer than what the tracker knows, so a state that differs (forward, or back
    // by a reverted fill) is a move.
    const moved = [...this.#open.values()]
      .filter((known) => {
        const now = listed.get(known.orderId);
        return now === undefined || now.status !== known.status || now.filledAmount !== known.filledAmount;
      })
      .map((known) => known.orderId);
    for (const order of orders) if (!this.#open.has(order.orderId)) moved.push(order.orderId);
    return moved;
  }

  /** Everything up to event `lastUpdateId` is accounted for (a listing reflects it). */
  advance(lastUpdateId: number): void {
    this.#seenUpTo = Math.max(this.#seenUpTo, lastUpdateId);
  }

  /** Takes an event in; true when it is news (and the tracker moved with it), false when it was already known. */
  accept(event: UserEvent): boolean {
    const orderId = Number(event.orderId);
    const known = this.#open.get(orderId);
    // A reverted fill moves the state back, so only its id tells whether it is known.
    const news =
      known === undefined
        ? event.eventId > this.#seenUpTo
        : event.eventId > known.lastEventId && (event.type === 'ORDER_FILL_REVERTED' || isPast(event, known));
    this.#seenUpTo = Math.max(this.#seenUpTo, event.eventId);
    if (!news) return false;
    if (isOpen(event.status)) this.#track({ ...event, orderId }, event.eventId);
    else this.#open.delete(orderId);
    return true;
  }

  #track(order: TrackedOrder, lastEventId: number): void {
    const { orderId, orderbookId, status, filledAmount } = order;
    this.#open.set(orderId, { orderId, orderbookId, status, filledAmount, lastEventId });
  }
}
