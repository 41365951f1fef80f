import type { WireOrderStatus } from '../../domain/orders/wire-status.js';
import type { OrderEventType } from '../../ports/store/order-ports.js';
import type { HistoryEventView } from '../http/orders/order-views.js';

/**
 * The wire messages of the two streams. Every message the server sends is one JSON text frame
 * with `type` and `seq`: `seq` counts the messages the connection was sent from 1 without gaps,
 * so a client that sees a jump knows it lost something and resyncs. The server reads no
 * messages; it pings, and a client that does not answer is closed.
 */

export type StreamName = 'depth' | 'user-events';

/** Upgrade paths of the streams. */
export const STREAM_PATHS: ReadonlyMap<string, StreamName> = new Map([
  ['/ws/depth', 'depth'],
  ['/ws/user-events', 'user-events'],
]);

/** Close codes (RFC 6455) the server uses; 1009 for an oversized frame comes from the ws package. */
export const CLOSE_GOING_AWAY = 1001;

/**
 * The connection's metadata as a message: sent first, and only to a client that asks for it with
 * `welcome=true` (a browser cannot read the upgrade's headers, which carry the same). Clients of the
 * real service treat every depth message as a diff, so nothing else precedes the stream's own.
 */
export interface WelcomeMessage {
  readonly type: 'WELCOME';
  readonly seq: 1;
  readonly connectionId: string;
  readonly stream: StreamName;
  /** The authenticated account (the JWT's subject). */
  readonly account: string;
  /** The books followed; null on /ws/user-events without `books`: every book. */
  readonly books: readonly number[] | null;
  readonly heartbeatMs: number;
  /** Whether the account's open orders on `books` are cancelled when this connection is lost. */
  readonly cancelOnDisconnect: boolean;
}

/**
 * The change of one book's depth over updates `firstUpdateId..finalUpdateId`, as the last size of
 * every level they touched (`"0"`: the level is gone). Per book, each diff's `firstUpdateId` is the
 * previous diff's `finalUpdateId + 1`, continuing the `lastUpdateId` of `GET /depth/:orderbookId`.
 */
export interface DepthDiffMessage {
  readonly type: 'DEPTH_DIFF';
  readonly seq: number;
  /** A decimal string, as the live API sends it. */
  readonly orderbookId: string;
  readonly firstUpdateId: number;
  readonly finalUpdateId: number;
  /** Server time (unix ms) of the earliest change in the diff. */
  readonly timestamp: number;
  readonly bids: readonly [price: string, size: string][];
  readonly asks: readonly [price: string, size: string][];
}

export const USER_EVENT_TYPES = {
  CREATED: 'ORDER_CREATED',
  PARTIAL_FILL: 'ORDER_PARTIALLY_FILLED',
  FILLED: 'ORDER_FILLED',
  CANCELED: 'ORDER_CANCELED',
  EXPIRED: 'ORDER_EXPIRED',
  REJECTED: 'ORDER_REJECTED',
} as const satisfies Record<OrderEventType, string>;

/** The order's status after each kind of event, in the live API's words. */
export const STATUS_AFTER = {
  CREATED: 'ACTIVE',
  PARTIAL_FILL: 'PARTIALLY_FILLED',
  FILLED: 'FILLED',
  CANCELED: 'CANCELED',
  EXPIRED: 'EXPIRED',
  REJECTED: 'REJECTED',
} as const satisfies Record<OrderEventType, WireOrderStatus>;

export type UserEventType = (typeof USER_EVENT_TYPES)[OrderEventType];

/**
 * One history event of one of the account's orders. `eventId` is the id of the same event in
 * `GET /orders/:orderId/history` (there a string); `GET /orders` answers the `lastUpdateId` it
 * reflects, so a client recovering after a reconnect applies only events with a larger `eventId`.
 * `status` and `filledAmount` are the order's state after the event (as `GET /orders` shows it),
 * so applying an event twice changes nothing. Ids are decimal strings, as the live API sends them.
 */
export interface UserEventMessage {
  readonly type: UserEventType;
  readonly seq: number;
  readonly eventId: number;
  readonly orderId: string;
  readonly orderbookId: string;
  readonly timestamp: number;
  /** The signed order's swapper, a lower-case 0x address. */
  readonly swapper: string;
  readonly status: WireOrderStatus;
  /** Why the order ended (`USER`, `OCO`, `EXPIRED`, `WOULD_TAKE`, ...), else null. */
  readonly reason: string | null;
  /** Base amount filled so far, display units. */
  readonly filledAmount: string;
  readonly txHash: string | null;
  readonly fill: HistoryEventView['fill'];
}

/** `ORDER_CREATED` also carries the order itself, as the live API's does. */
export interface OrderCreatedMessage extends UserEventMessage {
  readonly type: 'ORDER_CREATED';
  readonly side: 'buy' | 'sell';
  /** The signed limit price, display units (quote per base). */
  readonly price: string;
  /** Base size, display units. */
  readonly amount: string;
  readonly orderType: 'LIMIT' | 'MARKET';
  /** The signed deadline, unix ms. */
  readonly expiresAt: number;
  readonly makerOnly: 0 | 1;
  readonly takerOnce: 0 | 1;
}

export type ServerMessage = WelcomeMessage | DepthDiffMessage | UserEventMessage | OrderCreatedMessage;

/** A message without its sequence number: serialised once, then numbered per connection. */
export type MessageBody<M extends ServerMessage = ServerMessage> = Omit<M, 'seq'>;

/** The JSON text of a body; `numbered` adds a connection's sequence number to it. */
export function encodeBody(body: MessageBody): string {
  return JSON.stringify(body);
}

/** Puts `seq` first into an encoded body (`{"seq":7,"type":...}`) without parsing it again. */
export function numbered(encoded: string, seq: number): string {
  return `{"seq":${seq},${encoded.slice(1)}`;
}
