/**
 * The messages of `/ws/depth` and `/ws/user-events`. Every message is one JSON text frame with
 * `type` and `seq`: `seq` counts the messages the connection was sent from 1 without gaps, so a
 * client that sees a jump knows it lost something and resyncs.
 */
import { type Static, Type } from 'typebox';
import { literalUnion } from './literals.js';
import { EventSequence, HistoryEventSchema, OrderKind, OrderStatus, Side } from './orders.js';

const Seq = Type.Integer({ minimum: 1, description: 'Position of the message on its connection, from 1 without gaps' });
const StreamNameSchema = Type.Union([Type.Literal('depth'), Type.Literal('user-events')]);
const Level = Type.Tuple([Type.String(), Type.String()], { description: '[price, size]; a size of "0" removes the level' });
const Flag = Type.Union([Type.Literal(0), Type.Literal(1)]);

/**
 * The connection's metadata, sent first and only to a client that asks with `welcome=true` (a
 * browser cannot read the upgrade's headers, which carry the same).
 */
export const WelcomeMessageSchema = Type.Object({
  type: Type.Literal('WELCOME'),
  seq: Seq,
  connectionId: Type.String(),
  stream: StreamNameSchema,
  account: Type.String({ description: 'The account the token was issued to' }),
  books: Type.Union([Type.Array(Type.Integer()), Type.Null()], { description: 'The books followed; null: every book' }),
  heartbeatMs: Type.Integer({ description: 'The server pings this often; a connection silent for two intervals is dead' }),
  cancelOnDisconnect: Type.Boolean({ description: "Whether losing the connection cancels the account's open orders on `books`" }),
});

/**
 * The levels of one book that changed over updates `firstUpdateId..finalUpdateId`, as they stand
 * after it. Per book, each diff's `firstUpdateId` is the previous diff's `finalUpdateId + 1`,
 * continuing the `lastUpdateId` of `GET /depth/:orderbookId`.
 */
export const DepthDiffSchema = Type.Object({
  type: Type.Literal('DEPTH_DIFF'),
  seq: Seq,
  orderbookId: Type.String({ description: 'A decimal string, as the live API sends it' }),
  firstUpdateId: Type.Integer(),
  finalUpdateId: Type.Integer(),
  timestamp: Type.Integer({ description: 'Server time of the earliest change, unix ms' }),
  bids: Type.Array(Level, { description: 'Best first' }),
  asks: Type.Array(Level, { description: 'Best first' }),
});

/** The user stream's event types, one per kind of order history event. */
export const USER_EVENT_TYPES = [
  'ORDER_CREATED',
  'ORDER_PARTIALLY_FILLED',
  'ORDER_FILLED',
  'ORDER_FILL_REVERTED',
  'ORDER_CANCELED',
  'ORDER_EXPIRED',
  'ORDER_REJECTED',
] as const;

/**
 * One event of one of the account's orders: `eventId` is the id of the same event in the order's
 * history, and `status` and `filledAmount` are the order's state after it, so applying an event
 * twice changes nothing.
 */
export const UserEventSchema = Type.Object({
  type: literalUnion(USER_EVENT_TYPES),
  seq: Seq,
  eventId: Type.Integer({ description: 'The event id of `GET /orders/:orderId/history`; increasing per account' }),
  sequence: EventSequence,
  orderId: Type.String({ description: 'A decimal string' }),
  orderbookId: Type.String({ description: 'A decimal string' }),
  timestamp: Type.Integer({ description: 'Unix ms' }),
  swapper: Type.String({ description: "The signed order's swapper, a lower-case 0x address" }),
  status: OrderStatus,
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the order ended (USER, OCO, EXPIRED, ...), else null' }),
  filledAmount: Type.String({ description: 'Base amount filled so far, display units' }),
  txHash: Type.Union([Type.String(), Type.Null()]),
  fill: HistoryEventSchema.properties.fill,
});

/** `ORDER_CREATED` also carries the order itself, as the live API's does. */
export const OrderCreatedSchema = Type.Object({
  ...UserEventSchema.properties,
  type: Type.Literal('ORDER_CREATED'),
  side: Side,
  price: Type.String({ description: 'The signed limit price, display units (quote per base)' }),
  amount: Type.String({ description: 'Base size, display units' }),
  orderType: OrderKind,
  expiresAt: Type.Integer({ description: 'The signed deadline, unix ms' }),
  makerOnly: Flag,
  takerOnce: Flag,
});

export type StreamName = Static<typeof StreamNameSchema>;
export type WelcomeMessage = Static<typeof WelcomeMessageSchema>;
export type DepthDiff = Static<typeof DepthDiffSchema>;
export type UserEventType = (typeof USER_EVENT_TYPES)[number];
export type UserEventMessage = Static<typeof UserEventSchema>;
export type OrderCreatedMessage = Static<typeof OrderCreatedSchema>;
export type StreamMessage = WelcomeMessage | DepthDiff | UserEventMessage | OrderCreatedMessage;
