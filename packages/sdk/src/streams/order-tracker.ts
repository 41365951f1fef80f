import { StreamError } from '../errors.js';
import type { OrderStatus } from '../order-types.js';
import { decimalKey } from './decimal-key.js';
import type { UserEvent } from './messages.js';

/** An open order as a user-event stream keeps it. */
export interface TrackedOrder {
  readonly orderId: number;
  /** The book's id as a decimal string, as the API sends it. */
  readonly orderbookId: string;
  /** `ACTIVE` or `PARTIALLY_FILLED`: an order that ends leaves the open orders. */
  readonly status: OrderStatus;
  /** Base amount filled, display units; undefined where the server does not say (the live service). */
  readonly filledAmount?: string | undefined;
  /** How many events the order has had (the `sequence` of its latest), where the server says. */
  readonly sequence?: number | undefined;
}

interface Entry extends TrackedOrder {
  /** No event up to this id can tell anything new about the order (servers with event ids). */
  readonly lastEventId: number | undefined;
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
 * not past the known one is already reflected in it. Without filled amounts (the live service),
 * only the status tells, and a further fill of a partly filled order counts as past.
 */
function isPast(
  state: Pick<TrackedOrder, 'status' | 'filledAmount'>,
  known: Pick<TrackedOrder, 'status' | 'filledAmount'>,
): boolean {
  if (state.filledAmount === undefined || known.filledAmount === undefined) {
    return (
      RANK[state.status] > RANK[known.status] || (state.status === 'PARTIALLY_FILLED' && known.status === 'PARTIALLY_FILLED')
    );
  }
  const filled = decimalKey(state.filledAmount, 'filled amount');
  const knownFilled = decimalKey(known.filledAmount, 'filled amount');
  return filled > knownFilled || (filled === knownFilled && RANK[state.status] > RANK[known.status]);
}

/**
 * How long an order that ended is kept after its last event (server time), to refuse late copies
 * of its events: well above the 5 s margin of the orders a reconnect reads histories of.
 */
const ENDED_KEPT_MS = 60_000;

/**
 * The account's open orders, kept from a listing (`GET /orders`) and the events after it. It
 * decides which events are news, by the best each server tells:
 * - by `sequence` (an order's events counted from 1): an event of a known order is news when its
 *   sequence is above the order's; one that skips a number means events were lost, a StreamError
 *   `seq-gap`. An event of an unknown order is news when it is the order's first;
 * - else by `eventId` (increasing per account): an event of a known order is news when its id is
 *   above what the order's state reflects and its state is past it; of an unknown order, when its
 *   id is above the last listing's `lastUpdateId`.
 * So a listing that already reflects an event, an event replayed from a history and received live
 * too, or an event the stream buffered before the listing, are each told once.
 *
 * Events of different orders may arrive out of order (books of different engines publish on their
 * own); those of one order never do. Orders that ended are kept, until a listing reflects their
 * last event or for a minute, so that a late copy of one of their events cannot open them again.
 */
export class OrderTracker {
  readonly #open = new Map<number, Entry>();
  /** Orders that ended, oldest end first, with the server time of their last event. */
  readonly #ended = new Map<number, Entry & { readonly endedAt: number }>();
  /** Every event of the account up to this id is reflected by a listing. */
  #listedUpTo = 0;
  #started = false;

  /** Whether a first listing was taken. */
  get started(): boolean {
    return this.#started;
  }

  /** The open orders, by id. */
  orders(): ReadonlyMap<number, TrackedOrder> {
    return new Map([...this.#open].map(([id, entry]) => [id, trackedOf(entry)]));
  }

  /** Starts over from a listing of the open orders that reflects at least event `lastUpdateId`. */
  start(orders: readonly TrackedOrder[], lastUpdateId: number): void {
    this.#open.clear();
    this.#ended.clear();
    for (const order of orders) this.#open.set(order.orderId, { ...trackedOf(order), lastEventId: lastUpdateId });
    this.#listedUpTo = lastUpdateId;
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
        return (
          now === undefined ||
          now.status !== known.status ||
          now.filledAmount !== known.filledAmount ||
          (now.sequence !== undefined && now.sequence !== known.sequence)
        );
      })
      .map((known) => known.orderId);
    for (const order of orders) if (!this.#open.has(order.orderId)) moved.push(order.orderId);
    return moved;
  }

  /** Everything up to event `lastUpdateId` is accounted for (a listing reflects it). */
  advance(lastUpdateId: number): void {
    this.#listedUpTo = Math.max(this.#listedUpTo, lastUpdateId);
    for (const [orderId, ended] of this.#ended) {
      if (ended.lastEventId !== undefined && ended.lastEventId <= this.#listedUpTo) this.#ended.delete(orderId);
    }
  }

  /** Takes an event in; true when it is news (and the tracker moved with it), false when it was already known. */
  accept(event: UserEvent): boolean {
    const orderId = Number(event.orderId);
    const known = this.#open.get(orderId) ?? this.#ended.get(orderId);
    if (!this.#isNews(event, known)) return false;
    // What the event does not say is no longer known: a sequence or amount kept from before it would be stale.
    const entry: Entry = {
      orderId,
      orderbookId: event.orderbookId,
      status: event.status,
      filledAmount: event.filledAmount,
      sequence: event.sequence,
      lastEventId: event.eventId ?? known?.lastEventId,
    };
    this.#ended.delete(orderId);
    if (isOpen(event.status)) {
      this.#open.set(orderId, entry);
    } else {
      this.#open.delete(orderId);
      this.#ended.set(orderId, { ...entry, endedAt: event.timestamp });
      this.#forgetEndedBefore(event.timestamp - ENDED_KEPT_MS);
    }
    return true;
  }

  #isNews(event: UserEvent, known: Entry | undefined): boolean {
    const { sequence, eventId } = event;
    if (known === undefined) return eventId === undefined ? sequence === 1 : eventId > this.#listedUpTo;
    if (sequence !== undefined && known.sequence !== undefined) {
      if (sequence > known.sequence + 1) {
        throw new StreamError('seq-gap', `Events of order ${event.orderId} were lost`, {
          details: `its event ${known.sequence + 1} did not come; ${sequence} did`,
        });
      }
      return sequence > known.sequence;
    }
    // A reverted fill moves the state back, so only its id tells whether it is known.
    const moves = event.type === 'ORDER_FILL_REVERTED' || isPast(event, known);
    if (eventId !== undefined && known.lastEventId !== undefined) return eventId > known.lastEventId && moves;
    return moves;
  }

  #forgetEndedBefore(time: number): void {
    for (const [orderId, ended] of this.#ended) {
      if (ended.endedAt >= time) return;
      this.#ended.delete(orderId);
    }
  }
}

function trackedOf(order: TrackedOrder): TrackedOrder {
  const { orderId, orderbookId, status, filledAmount, sequence } = order;
  return { orderId, orderbookId, status, filledAmount, sequence };
}
