/**
 * The messages of `/ws/depth` and `/ws/user-events` as they travel, and the checks that make a
 * malformed one a {@link StreamError} instead of a corrupted book or order. They are read in
 * every form a server sends: this service's (each message with `type` and a connection `seq`,
 * user events with `eventId`, `status` and `filledAmount`), the live service's (depth diffs with
 * no envelope at all; user events with a per-order `sequence` and no status or filled amount), and
 * older versions of this service (numeric ids, `OPEN`, no `sequence`).
 */
import {
  type OrderCreatedMessage,
  type OrderStatus,
  USER_EVENT_TYPES as USER_EVENT_TYPE_LIST,
  type UserEventType,
  type WelcomeMessage,
  type DepthDiff as WireDepthDiff,
  type UserEventMessage as WireUserEvent,
} from '@dex/protocol';
import { StreamError } from '../errors.js';
import { idText, statusWord } from '../wire-compat.js';

export type { StreamName, UserEventType, WelcomeMessage } from '@dex/protocol';

/** What a user event tells beyond its order and time; each server sends some of it. */
type EventDetails = Pick<WireUserEvent, 'eventId' | 'sequence' | 'filledAmount' | 'reason' | 'txHash' | 'fill' | 'swapper'>;

/**
 * One event of one of the account's orders, as a stream sends it or as the SDK reads it from the
 * order's history. `status` is always there: where a server does not send it (the live service),
 * it is the one the event's type leaves. An order is followed by `sequence` (its events counted
 * from 1, as the live service and this one send them) or by `eventId` (this service's id,
 * increasing per account); a message has at least one of them. `filledAmount` is sent by this
 * service only. `ORDER_CREATED` carries the order.
 */
export type UserEvent = Pick<WireUserEvent, 'type' | 'orderId' | 'orderbookId' | 'timestamp' | 'status'> &
  Partial<EventDetails & Omit<OrderCreatedMessage, keyof WireUserEvent>>;

/** A user event as the connection delivered it: with its place on the connection when the server numbers them. */
export type UserEventMessage = UserEvent & { readonly seq?: number };

/**
 * A depth diff: the levels of one book that changed over updates `firstUpdateId..finalUpdateId`,
 * with its place on the connection when the server numbers messages (the live service does not).
 */
export type DepthDiff = Omit<WireDepthDiff, 'seq'> & { readonly seq?: number };

export type StreamMessage = WelcomeMessage | DepthDiff | UserEventMessage;

/** A message of a type this SDK does not know: passed on, never relied on. */
export interface OtherMessage {
  readonly type: string;
  readonly seq?: number;
}

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

/** The status an event's type leaves an order in, for servers that do not say; a reverted fill's depends on the order. */
const STATUS_AFTER: Readonly<Record<UserEventType, OrderStatus | null>> = {
  ORDER_CREATED: 'ACTIVE',
  ORDER_PARTIALLY_FILLED: 'PARTIALLY_FILLED',
  ORDER_FILLED: 'FILLED',
  ORDER_FILL_REVERTED: null,
  ORDER_CANCELED: 'CANCELED',
  ORDER_EXPIRED: 'EXPIRED',
  ORDER_REJECTED: 'REJECTED',
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
/** An id as current servers send it (a decimal string) or as older ones did (a number). */
const isIdOrText = (value: unknown): value is number | string =>
  isId(value) || (typeof value === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(value));
const isLevel = (value: unknown): boolean =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string';
const isLevels = (value: unknown): boolean => Array.isArray(value) && value.every(isLevel);
const absentOr = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);

function malformed(details: string): StreamError {
  return new StreamError('malformed', 'The stream sent a message that breaks its protocol', { details });
}

/** A depth diff in any server's form: `DEPTH_DIFF` with a `seq`, or the live service's bare diff. */
function isDiffShaped(value: Record<string, unknown>): boolean {
  return (
    isIdOrText(value.orderbookId) &&
    isId(value.firstUpdateId) &&
    isId(value.finalUpdateId) &&
    value.firstUpdateId <= value.finalUpdateId &&
    isLevels(value.bids) &&
    isLevels(value.asks)
  );
}

function readDepthDiff(value: Record<string, unknown>): DepthDiff {
  if (!isDiffShaped(value)) throw malformed('a depth diff lacks its book, update ids or levels');
  const diff = value as unknown as WireDepthDiff;
  return { ...diff, type: 'DEPTH_DIFF', orderbookId: idText(diff.orderbookId) };
}

function readUserEvent(value: Record<string, unknown>): UserEventMessage {
  const type = value.type as UserEventType;
  const wellFormed =
    isIdOrText(value.orderId) &&
    isIdOrText(value.orderbookId) &&
    typeof value.timestamp === 'number' &&
    absentOr(value.eventId, isId) &&
    absentOr(value.sequence, (sequence) => isId(sequence) && sequence >= 1) &&
    (value.eventId !== undefined || value.sequence !== undefined) &&
    absentOr(value.filledAmount, (amount) => typeof amount === 'string') &&
    absentOr(value.status, (status) => ORDER_STATUSES.has(String(status)));
  if (!wellFormed) throw malformed(`${type} lacks its order, book, time or sequence, or has one malformed`);
  const status = value.status === undefined ? STATUS_AFTER[type] : statusWord(value.status as OrderStatus | 'OPEN');
  if (status === null) throw malformed(`${type} without the status it leaves`);
  const event = value as unknown as UserEventMessage;
  return { ...event, orderId: idText(event.orderId), orderbookId: idText(event.orderbookId), status };
}

/**
 * Parses one text frame. Only what the SDK relies on is checked (ids, sequence numbers, level pairs,
 * statuses); prices and sizes are checked where they are used. Other message types pass through
 * unchecked, so a server that adds one does not break older clients.
 */
export function parseStreamMessage(text: string): StreamMessage | OtherMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw malformed(`not JSON: ${String(cause)}`);
  }
  if (!isRecord(value) || !absentOr(value.seq, isId)) throw malformed('a message is a JSON object, its seq an integer');
  if (value.type === undefined && 'firstUpdateId' in value) return readDepthDiff(value);
  if (typeof value.type !== 'string') throw malformed('a message needs a string type, or the fields of a depth diff');
  if (value.type === 'DEPTH_DIFF') return readDepthDiff(value);
  if (USER_EVENT_TYPES.has(value.type)) return readUserEvent(value);
  if (value.type === 'WELCOME' && !(isId(value.heartbeatMs) && typeof value.account === 'string')) {
    throw malformed('WELCOME without heartbeatMs or account');
  }
  return value as unknown as StreamMessage | OtherMessage;
}

export const isDepthDiff = (message: { type: string }): message is DepthDiff => message.type === 'DEPTH_DIFF';
export const isUserEvent = (message: { type: string }): message is UserEventMessage => USER_EVENT_TYPES.has(message.type);
