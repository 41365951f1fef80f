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

/** A body serialised once for every connection it goes to: its JSON after the opening brace, where `seq` goes first. */
export interface EncodedBody {
  readonly rest: Buffer;
}

export function encodeBody(body: MessageBody): EncodedBody {
  return { rest: Buffer.from(JSON.stringify(body).slice(1)) };
}

/** The first byte of an unfragmented text frame (RFC 6455 section 5.2): FIN and opcode 1. */
const FINAL_TEXT_FRAME = 0x81;
/** Payload lengths above this take a 16-bit length field (marked 126), above 65,535 a 64-bit one (marked 127). */
const SHORT_PAYLOAD = 125;
const MEDIUM_PAYLOAD = 65_535;

/**
 * The whole WebSocket frame of a body numbered `seq` (`{"seq":7,"type":...}`), unmasked as a
 * server's frames are. The connection writes it to its socket in one piece: each follower costs
 * one small buffer and one write, not a text of its own that the socket encodes again.
 */
export function numberedFrame(body: EncodedBody, seq: number): Buffer {
  const head = `{"seq":${seq},`;
  const length = head.length + body.rest.length;
  const lengthBytes = length <= SHORT_PAYLOAD ? 0 : length <= MEDIUM_PAYLOAD ? 2 : 8;
  const start = 2 + lengthBytes;
  const frame = Buffer.allocUnsafe(start + length);
  frame[0] = FINAL_TEXT_FRAME;
  if (lengthBytes === 0) frame[1] = length;
  else if (lengthBytes === 2) {
    frame[1] = SHORT_PAYLOAD + 1;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = SHORT_PAYLOAD + 2;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  // The head is ASCII: digits and punctuation.
  frame.write(head, start, 'latin1');
  body.rest.copy(frame, start + head.length);
  return frame;
}
