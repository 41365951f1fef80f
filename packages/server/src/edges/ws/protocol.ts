import type { DepthDiff, OrderCreatedMessage, StreamName, UserEventMessage, UserEventType, WelcomeMessage } from '@dex/protocol';
import type { OrderEventType } from '../../domain/orders/order-records.js';

/**
 * The wire messages of the two streams. Every message the server sends is one JSON text frame
 * with `type` and `seq`: `seq` counts the messages the connection was sent from 1 without gaps,
 * so a client that sees a jump knows it lost something and resyncs. The server reads no
 * messages; it pings, and a client that does not answer is closed. The messages' shapes are the
 * protocol package's; this module numbers and encodes them.
 */
export type {
  DepthDiff as DepthDiffMessage,
  OrderCreatedMessage,
  StreamName,
  UserEventMessage,
  UserEventType,
  WelcomeMessage,
} from '@dex/protocol';

/** Upgrade paths of the streams. */
export const STREAM_PATHS: ReadonlyMap<string, StreamName> = new Map([
  ['/ws/depth', 'depth'],
  ['/ws/user-events', 'user-events'],
]);

/** Close codes (RFC 6455) the server uses; 1009 for an oversized frame comes from the ws package. */
export const CLOSE_GOING_AWAY = 1001;

/** The user stream's event type of each kind of order event. */
export const USER_EVENT_TYPES = {
  CREATED: 'ORDER_CREATED',
  PARTIAL_FILL: 'ORDER_PARTIALLY_FILLED',
  FILLED: 'ORDER_FILLED',
  FILL_REVERTED: 'ORDER_FILL_REVERTED',
  CANCELED: 'ORDER_CANCELED',
  EXPIRED: 'ORDER_EXPIRED',
  REJECTED: 'ORDER_REJECTED',
} as const satisfies Record<OrderEventType, UserEventType>;

export type ServerMessage = WelcomeMessage | DepthDiff | UserEventMessage | OrderCreatedMessage;

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
