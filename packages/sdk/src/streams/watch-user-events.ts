import { getOrderHistory } from '../actions/get-order-history.js';
import { getOrderPages } from '../actions/get-orders.js';
import type { Client } from '../client.js';
import { ApiError, type InvalidParameterError } from '../errors.js';
import { OPEN_STATUSES, type OrderHistory } from '../order-types.js';
import { type OrderbookId, orderbookIdsParameter } from '../utils/parameters.js';
import { historyEvents } from './history-events.js';
import { isUserEvent, type UserEvent, type UserEventMessage } from './messages.js';
import { OrderTracker, type TrackedOrder } from './order-tracker.js';
import { type ConnectionHandler, ReliableStream, type StreamHandle, type StreamOptions } from './reliable-stream.js';

/** An event as the stream hands it over. */
export interface StreamedUserEvent extends UserEvent {
  /** True for an event that happened while the stream was disconnected, read from the order's history. */
  readonly recovered: boolean;
}

export interface WatchUserEventsParameters extends StreamOptions {
  /** Only the orders of these books; every book when absent. */
  readonly books?: readonly OrderbookId[] | undefined;
  /**
   * Every event of the account's orders that the open orders known so far do not reflect yet,
   * once, in event id order. After a reconnect it first gets the events missed meanwhile
   * (`recovered`): of every order that was open, and of every order created since, even one that
   * opened and ended while the stream was away.
   */
  readonly onEvent?: ((event: StreamedUserEvent) => void) | undefined;
  /**
   * Asks the server, on every connection, to cancel the account's open orders on `books` (every
   * book without `books`) when the connection is lost rather than closed: the process dies, the
   * network drops it, it misses the server's heartbeat. {@link StreamHandle.close} closes cleanly
   * and cancels nothing; neither does the server's own restart. The orders go with reason
   * `DISCONNECT`, and the stream tells their `ORDER_CANCELED` once it has reconnected.
   */
  readonly cancelOnDisconnect?: boolean | undefined;
}

export interface UserEventStream extends StreamHandle {
  /** The account's open orders (`ACTIVE`, `PARTIALLY_FILLED`) by id, as of the last event; empty until the first sync. */
  orders(): ReadonlyMap<number, TrackedOrder>;
}

export type WatchUserEventsReturnType = UserEventStream;

/**
 * Thrown at once: InvalidParameterError for `books`. Reported through `onError` and `closed`: ApiError
 * (a refused handshake or listing; 400 `UNKNOWN_ORDERBOOK` stops the stream, 401, 429 and 5xx are
 * retried), NetworkError, StreamError, NotAuthenticatedError (no token and no signer). In a browser
 * a refused handshake is a NetworkError, retried (see {@link StreamOptions.onError}).
 */
export type WatchUserEventsErrorType = InvalidParameterError;

/** Readings of a listing of several pages before one is taken though orders moved between its pages. */
const LISTING_READS = 3;
/** Histories read at once after a reconnect. */
const HISTORY_BATCH = 8;
/**
 * How far before the last moment the stream knew the account's state it looks for changed orders:
 * the `Date` of a listing has whole seconds, and an order's timestamps are taken a little before
 * its events are stored.
 */
const SINCE_MARGIN_MS = 5_000;

/**
 * Follows the events of the account's orders (`/ws/user-events`) and keeps its open orders. Every
 * connection (the first and each reconnect, after logging in again when the token is no longer
 * good) opens the stream and buffers, reads the open orders (`GET /orders`), then applies the
 * buffered and live events the listing does not reflect. After a reconnect it also reads the
 * history of each order that may have moved meanwhile: those the new listing shows to have moved,
 * and every order created or changed since the stream last knew the account's state (read from the
 * listing of all orders, newest first), so no fill or cancellation is lost, even of an order that
 * opened and ended entirely while the stream was away.
 *
 * @example
 * const events = watchUserEvents(client, {
 *   onEvent: (event) => console.log(event.orderId, event.type, event.filledAmount),
 * });
 * await events.waitUntilLive();
 * console.log(events.orders());
 */
export function watchUserEvents(client: Client, parameters: WatchUserEventsParameters = {}): WatchUserEventsReturnType {
  const { onEvent } = parameters;
  const books = parameters.books === undefined ? null : new Set(orderbookIdsParameter(parameters.books, 'books'));
  const tracker = new OrderTracker();
  /** Server time (unix ms) up to which the stream knows every event: the last listing, or the last event. */
  let knownUntil = 0;

  const connect = (signal: AbortSignal): ConnectionHandler => {
    /** Events received while the state to apply them to is read. */
    let buffered: UserEventMessage[] | undefined = [];
    const take = (event: UserEvent, recovered: boolean): void => {
      if (!tracker.accept(event)) return;
      knownUntil = Math.max(knownUntil, event.timestamp);
      if (onEvent !== undefined) stream.deliver(() => onEvent({ ...withoutSeq(event), recovered }));
    };
    return {
      sync: async () => {
        const listing = await listOpenOrders(client, books, signal);
        if (signal.aborted) return;
        let missed: UserEvent[] = [];
        if (!tracker.started) {
          tracker.start(listing.orders, listing.lastUpdateId);
        } else {
          const since = knownUntil - SINCE_MARGIN_MS;
          const changed = await listChangedSince(client, books, since, signal);
          const moved = new Set([...tracker.movedIn(listing.orders), ...changed]);
          const histories = await readHistories(client, [...moved]);
          if (signal.aborted) return;
          missed = histories.flatMap(historyEvents);
        }
        // One order for both; a live copy of an event sorts before its history copy, and the copy is refused.
        const arrived = (buffered ?? []).map((event) => ({ event: event as UserEvent, recovered: false }));
        const replayed = missed.map((event) => ({ event, recovered: true }));
        buffered = undefined;
        const all = [...arrived, ...replayed];
        const order = eventOrder(all.map(({ event }) => event));
        for (const { event, recovered } of all.sort((a, b) => order(a.event, b.event))) take(event, recovered);
        tracker.advance(listing.lastUpdateId);
        knownUntil = Math.max(knownUntil, listing.serverTime ?? 0);
      },
      message: (message) => {
        if (!isUserEvent(message)) return;
        if (buffered !== undefined) buffered.push(message);
        else take(message, false);
      },
    };
  };

  const stream = new ReliableStream(
    client,
    {
      stream: 'user-events',
      books: books === null ? null : [...books],
      cancelOnDisconnect: parameters.cancelOnDisconnect === true,
      connect,
    },
    parameters,
  );
  return Object.assign(stream, { orders: () => tracker.orders() });
}

/**
 * The order to apply events in: by event id where every event has one (this service); else by
 * time, and an order's own events by their sequence (the live service, whose events have no id).
 * Either keeps each order's events in order, which is all the tracker needs.
 */
function eventOrder(events: readonly UserEvent[]): (a: UserEvent, b: UserEvent) => number {
  if (events.every((event) => event.eventId !== undefined)) return (a, b) => (a.eventId as number) - (b.eventId as number);
  return (a, b) => a.timestamp - b.timestamp || Number(a.orderId) - Number(b.orderId) || (a.sequence ?? 0) - (b.sequence ?? 0);
}

function withoutSeq(event: UserEvent | UserEventMessage): UserEvent {
  if (!('seq' in event)) return event;
  const { seq: _seq, ...rest } = event;
  return rest;
}

/**
 * Every open order of the account (in `books`), and the `lastUpdateId` the listing reflects at
 * least. Orders that end between two pages move later ones onto pages already read, so a listing
 * of several pages is read again when events happened while it was read.
 */
async function listOpenOrders(
  client: Client,
  books: ReadonlySet<number> | null,
  signal: AbortSignal,
): Promise<{ orders: TrackedOrder[]; lastUpdateId: number; serverTime: number | undefined }> {
  const orderbookId = books?.size === 1 ? [...books][0] : undefined;
  for (let reading = 1; ; reading++) {
    const orders = new Map<number, TrackedOrder>();
    let first: number | undefined;
    let serverTime: number | undefined;
    let last = 0;
    for await (const answer of getOrderPages(client, { status: OPEN_STATUSES, orderbookId })) {
      const listing = answer.page;
      first ??= listing.lastUpdateId;
      serverTime ??= answer.serverTime;
      last = listing.lastUpdateId;
      for (const order of listing.orders) {
        if (books !== null && !books.has(Number(order.orderbookId))) continue;
        const { id, status, filledAmount, sequence } = order;
        orders.set(id, { orderId: id, orderbookId: order.orderbookId, status, filledAmount, sequence });
      }
      if (signal.aborted) break;
    }
    if (last === first || reading === LISTING_READS || signal.aborted) {
      return { orders: [...orders.values()], lastUpdateId: first ?? 0, serverTime };
    }
  }
}

/**
 * The ids of the account's orders (in `books`) created or changed at or after `since` (server
 * unix ms), from the listing of all its orders, newest first: it stops at the first page that
 * reaches orders created before `since`. New orders only push older ones to later pages, so none
 * is skipped while the pages are read.
 */
async function listChangedSince(
  client: Client,
  books: ReadonlySet<number> | null,
  since: number,
  signal: AbortSignal,
): Promise<number[]> {
  const orderbookId = books?.size === 1 ? [...books][0] : undefined;
  const changed = new Set<number>();
  for await (const { page } of getOrderPages(client, { orderbookId })) {
    for (const order of page.orders) {
      if (Date.parse(order.updatedAt) >= since && (books === null || books.has(Number(order.orderbookId)))) changed.add(order.id);
    }
    const oldest = page.orders.at(-1);
    if (signal.aborted || oldest === undefined || Date.parse(oldest.createdAt) < since) break;
  }
  return [...changed];
}

/** The histories of some orders, a few requests at a time; an order the server no longer knows is left out. */
async function readHistories(client: Client, orderIds: readonly number[]): Promise<OrderHistory[]> {
  const histories: OrderHistory[] = [];
  for (let start = 0; start < orderIds.length; start += HISTORY_BATCH) {
    const batch = orderIds.slice(start, start + HISTORY_BATCH);
    const read = await Promise.all(
      batch.map((orderId) =>
        getOrderHistory(client, { orderId }).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return undefined;
          throw error;
        }),
      ),
    );
    for (const history of read) if (history !== undefined) histories.push(history);
  }
  return histories;
}
