/**
 * The messages of `/ws/depth` and `/ws/user-events` as they travel, and the checks that make a
 * malformed one a {@link StreamError} instead of a corrupted book or order.
 */
import {
  type DepthDiff,
  type OrderCreatedMessage,
  type OrderStatus,
  USER_EVENT_TYPES as USER_EVENT_TYPE_LIST,
  type WelcomeMessage,
  type UserEventMessage as WireUserEvent,
} from '@dex/protocol';
import { StreamError } from '../errors.js';
import { idText, statusWord } from '../wire-compat.js';

export type { DepthDiff, StreamName, UserEventType, WelcomeMessage } from '@dex/protocol';

/**
 * One event of one of the account's orders, as the stream sends it or as the SDK reads it from the
 * order's history: the history has no swapper and no order, and `ORDER_CREATED` alone carries the
 * order, so those fields are optional here (older servers sent neither).
 */
export type UserEvent = Omit<WireUserEvent, 'seq' | 'swapper'> &
  Partial<Pick<WireUserEvent, 'swapper'> & Omit<OrderCreatedMessage, keyof WireUserEvent>>;

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
