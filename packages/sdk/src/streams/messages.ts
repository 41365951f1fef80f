/**
 * The messages of `/ws/depth` and `/ws/user-events` as they travel, and the checks that make a
 * malformed one a {@link StreamError} instead of a corrupted book or order.
 */
import { StreamError } from '../errors.js';
import type { OrderFill, OrderSide, OrderStatus, OrderType } from '../order-types.js';
import type { DepthLevel } from '../types.js';
import { idText, statusWord } from '../wire-compat.js';

export type StreamName = 'depth' | 'user-events';

/**
 * The connection's metadata, sent first when asked for with `welcome=true` (servers before that
 * option sent it unasked; servers without it, none).
 */
export interface WelcomeMessage {
  readonly type: 'WELCOME';
  readonly seq: number;
  readonly connectionId: string;
  readonly stream: StreamName;
  /** The account the token was issued to. */
  readonly account: string;
  /** The books followed; null: every book (user events without `books`). */
  readonly books: readonly number[] | null;
  /** The server pings this often; a connection silent for two intervals is dead. */
  readonly heartbeatMs: number;
  /** Whether losing this connection cancels the account's open orders on `books`; absent from servers before the option. */
  readonly cancelOnDisconnect?: boolean;
}

/** The levels of one book that changed over updates `firstUpdateId..finalUpdateId`, as they stand after it. */
export interface DepthDiff {
  readonly type: 'DEPTH_DIFF';
  readonly seq: number;
  /** The book's id as a decimal string, as the API sends it. */
  readonly orderbookId: string;
  readonly firstUpdateId: number;
  readonly finalUpdateId: number;
  /** Server time of the earliest change, unix ms. */
  readonly timestamp: number;
  /** `[price, size]`, best first; a size of `"0"` removes the level. */
  readonly bids: readonly DepthLevel[];
  readonly asks: readonly DepthLevel[];
}

const USER_EVENT_TYPE_LIST = [
  'ORDER_CREATED',
  'ORDER_PARTIALLY_FILLED',
  'ORDER_FILLED',
  'ORDER_CANCELED',
  'ORDER_EXPIRED',
  'ORDER_REJECTED',
] as const;

export type UserEventType = (typeof USER_EVENT_TYPE_LIST)[number];

/** One event of one of the account's orders: the same event, with the same id, as in the order's history. */
export interface UserEvent {
  readonly type: UserEventType;
  /** The event's id in `GET /orders/:orderId/history`; increasing per account. */
  readonly eventId: number;
  /** Decimal strings, as the API sends them. */
  readonly orderId: string;
  readonly orderbookId: string;
  /** Unix ms. */
  readonly timestamp: number;
  /** The signed order's swapper (0x address); absent from older servers and from events read from a history. */
  readonly swapper?: string | undefined;
  /** The order's status after the event. */
  readonly status: OrderStatus;
  /** Why the order ended (`USER`, `OCO`, `EXPIRED`, `WOULD_TAKE`, ...), else null. */
  readonly reason: string | null;
  /** Base amount filled after the event, display units. */
  readonly filledAmount: string;
  readonly txHash: string | null;
  /** On fills only. */
  readonly fill: OrderFill | null;
  /** `ORDER_CREATED` of current servers also carries the order (absent from events read from a history). */
  readonly side?: OrderSide | undefined;
  /** The signed limit price, display units. */
  readonly price?: string | undefined;
  /** Base size, display units. */
  readonly amount?: string | undefined;
  readonly orderType?: OrderType | undefined;
  /** The signed deadline, unix ms. */
  readonly expiresAt?: number | undefined;
  readonly makerOnly?: 0 | 1 | undefined;
  readonly takerOnce?: 0 | 1 | undefined;
}

export type UserEventMessage = UserEvent & { readonly seq: number };

export type StreamMessage = WelcomeMessage | DepthDiff | UserEventMessage;

const USER_EVENT_TYPES: ReadonlySet<string> = new Set(USER_EVENT_TYPE_LIST);
/** The current words, and `OPEN` of older servers (read as `ACTIVE`). */
const ORDER_STATUSES: ReadonlySet<string> = new Set<OrderStatus | 'OPEN'>([
  'ACTIVE',
  'OPEN',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELED',
  'EXPIRED',
  'REJECTED',
]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
/** An id as current servers send it (a decimal string) or as older ones did (a number). */
const isIdOrText = (value: unknown): value is number | string =>
  isId(value) || (typeof value === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(value));
const isLevel = (value: unknown): boolean =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string';
const isLevels = (value: unknown): boolean => Array.isArray(value) && value.every(isLevel);

function malformed(details: string): StreamError {
  return new StreamError('malformed', 'The stream sent a message that breaks its protocol', { details });
}

/**
 * Parses one text frame. Only what the SDK relies on is checked (ids, sequence numbers, level pairs,
 * statuses); prices and sizes are checked where they are used. Other message types pass through
 * unchecked, so a server that adds one does not break older clients.
 */
export function parseStreamMessage(text: string): StreamMessage | { readonly type: string; readonly seq: number } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw malformed(`not JSON: ${String(cause)}`);
  }
  if (!isRecord(value) || typeof value.type !== 'string' || !isId(value.seq)) {
    throw malformed('a message needs a string type and an integer seq');
  }
  if (value.type === 'WELCOME' && !(isId(value.heartbeatMs) && typeof value.account === 'string')) {
    throw malformed('WELCOME without heartbeatMs or account');
  }
  if (
    value.type === 'DEPTH_DIFF' &&
    !(
      isIdOrText(value.orderbookId) &&
      isId(value.firstUpdateId) &&
      isId(value.finalUpdateId) &&
      value.firstUpdateId <= value.finalUpdateId &&
      isLevels(value.bids) &&
      isLevels(value.asks)
    )
  ) {
    throw malformed(`DEPTH_DIFF ${value.seq} lacks its book, update ids or levels`);
  }
  if (
    USER_EVENT_TYPES.has(value.type) &&
    !(
      isId(value.eventId) &&
      isIdOrText(value.orderId) &&
      isIdOrText(value.orderbookId) &&
      typeof value.filledAmount === 'string' &&
      ORDER_STATUSES.has(String(value.status))
    )
  ) {
    throw malformed(`${value.type} ${value.seq} lacks its event id, order, book, status or filled amount`);
  }
  return current(value as unknown as StreamMessage);
}

/** A message of an older server in the current shape: string ids, `ACTIVE` for `OPEN`. */
function current(message: StreamMessage): StreamMessage {
  if (isDepthDiff(message)) return { ...message, orderbookId: idText(message.orderbookId) };
  if (isUserEvent(message)) {
    return {
      ...message,
      orderId: idText(message.orderId),
      orderbookId: idText(message.orderbookId),
      status: statusWord(message.status),
    };
  }
  return message;
}

export const isDepthDiff = (message: { type: string }): message is DepthDiff => message.type === 'DEPTH_DIFF';
export const isUserEvent = (message: { type: string }): message is UserEventMessage => USER_EVENT_TYPES.has(message.type);
