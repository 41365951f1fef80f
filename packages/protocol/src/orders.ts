/**
 * The order routes' requests and answers: build, save, cancel, the dead-man switch, the account's
 * orders and an order's history. Raw token amounts, nonces and deadlines of signed orders are
 * integer strings; display amounts are decimal strings.
 */
import { PLAIN_INTEGER_FORM, TOKEN_UNITS_FORM, type WireOrder } from '@dex/core';
import { type Static, Type } from 'typebox';
import { FORM } from './forms.js';
import { literalUnion } from './literals.js';

export type { WireOrder } from '@dex/core';

/** Longest timeout of the dead-man switch of `POST /cancel/after`: a day. */
export const MAX_CANCEL_AFTER_SECONDS = 86_400;

/**
 * Every status an order can have, in the order of its life: `ACTIVE` rests on its book without
 * fills, `PARTIALLY_FILLED` rests with some, the others are final.
 */
export const ORDER_STATUSES = ['ACTIVE', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'REJECTED'] as const;

/** A uint256 as decimal digits: no sign, exponent or leading zeros, at most 78 digits. */
const RAW_INTEGER_PATTERN = '^(0|[1-9][0-9]{0,77})$';
const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';
/** An order id sent as text. */
const ORDER_ID_TEXT_PATTERN = '^[1-9][0-9]{0,15}$';

const RawAmount = Type.String({
  pattern: RAW_INTEGER_PATTERN,
  description: 'Raw token units, integer string',
  [FORM]: TOKEN_UNITS_FORM,
});
const Address = Type.String({
  pattern: ADDRESS_PATTERN,
  description: 'EVM address',
  // The example is the first contract a fresh devnet deploys.
  [FORM]: 'a 0x-prefixed EVM address of 40 hex digits, e.g. "0x5fbdb2315678afecb367f032d93f642f64180aa3"',
});
const BookId = Type.Union([Type.Integer({ minimum: 1 }), Type.String({ maxLength: 20 })], {
  description: 'Order book id, as a number or a string',
  [FORM]: 'an order book id, as a number or a string of its digits, e.g. 1 or "1"',
});
export const OrderKind = Type.Union([Type.Literal('LIMIT'), Type.Literal('MARKET')]);
/** Binance's self-trade prevention modes; not signed, sent with the save like the OCO links. */
export const SelfTradePreventionMode = Type.Union(
  [Type.Literal('EXPIRE_MAKER'), Type.Literal('EXPIRE_TAKER'), Type.Literal('EXPIRE_BOTH')],
  {
    description:
      'When the order would trade with a resting order of the same account: EXPIRE_MAKER (default) cancels the resting order and matching goes on, EXPIRE_TAKER cancels the rest of this order, EXPIRE_BOTH both; reason SELF_TRADE',
  },
);
export const Side = Type.Union([Type.Literal('buy'), Type.Literal('sell')]);
const OrderId = Type.Integer({ minimum: 1, description: 'Order id' });
const BookIdText = Type.String({ description: 'Order book id, a decimal string (as the live API sends it)' });
const IsoTime = Type.String({ format: 'date-time', description: 'ISO-8601, UTC' });
export const OrderStatus = literalUnion(ORDER_STATUSES, {
  description: 'ACTIVE: resting without fills; PARTIALLY_FILLED; or a final FILLED, CANCELED, EXPIRED, REJECTED',
});
/** A flag as a boolean or as the 0/1 that `GET /books` uses for its own flags. */
const RequestFlag = Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1)]);
/** Fields of the ledger's consensus service that this deployment does not use: always null. */
const NotOnThisLedger = Type.Null({ description: 'Always null here (no consensus-service record)' });
const HistoryType = Type.Union([
  Type.Literal('CREATED'),
  Type.Literal('PARTIAL_FILL'),
  Type.Literal('FILLED'),
  Type.Literal('FILL_REVERTED'),
  Type.Literal('CANCELED'),
  Type.Literal('EXPIRED'),
  Type.Literal('REJECTED'),
]);

/** The signed order in its wire form (EIP-712 `PartialFillLimitOrder`). */
export const WireOrderSchema = Type.Object({
  info: Type.Object({
    reactor: Type.String(),
    swapper: Type.String(),
    nonce: Type.String(),
    deadline: Type.String({ description: 'Unix seconds' }),
    additionalValidationContract: Type.String(),
    additionalValidationData: Type.String(),
  }),
  input: Type.Object({ token: Type.String(), amount: Type.String() }),
  output: Type.Object({ token: Type.String(), amount: Type.String(), recipient: Type.String() }),
  makerOnly: Type.Boolean(),
  takerOnce: Type.Boolean(),
  maxTakerFeePips: Type.Integer(),
  maxMakerFeePips: Type.Integer(),
});

export const OrderRequestSchema = Type.Object(
  {
    orderbookId: BookId,
    type: OrderKind,
    deadline: Type.Optional(
      Type.Union([Type.String({ maxLength: 20 }), Type.Integer({ minimum: 0 })], {
        description:
          'LIMIT only: unix seconds; clamped into [now + 60 s, now + 90 d]. MARKET orders get a short server deadline.',
        [FORM]: 'unix seconds, as a number or a string of digits, e.g. 1767225600',
      }),
    ),
    inputToken: Address,
    inputAmount: RawAmount,
    outputToken: Address,
    outputAmount: { ...RawAmount, description: 'Minimum to receive, raw units ("1" for a MARKET order)' },
    recipient: Type.Optional(Address),
    makerOnly: Type.Optional(RequestFlag),
    takerOnce: Type.Optional(RequestFlag),
    isAMMEnabled: Type.Optional(RequestFlag),
  },
  { additionalProperties: false },
);

const OrderRequests = Type.Array(OrderRequestSchema, { minItems: 1, maxItems: 250, [FORM]: 'a list of 1 to 250 order requests' });
export const BuildBody = Type.Union(
  [Type.Object({ orderRequests: OrderRequests }, { additionalProperties: false }), OrderRequests],
  { [FORM]: 'an object {"orderRequests": [...]} or a list of 1 to 250 order requests' },
);

export const BuildResponse = Type.Object({
  orders: Type.Array(
    Type.Object({
      ...WireOrderSchema.properties,
      meta: Type.Object(
        {
          orderbookId: BookIdText,
          type: OrderKind,
          side: Side,
          isAMMEnabled: Type.Boolean({ description: 'Whether AMM liquidity may settle part of the order' }),
          orderHash: Type.String({ description: 'The EIP-712 digest of the order (what an Ed25519 key signs)' }),
        },
        { description: 'Not signed; may be sent back with the order to /orders/save, where it is ignored' },
      ),
    }),
  ),
});

export const SaveBody = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          order: Type.Unknown({ description: 'The order exactly as built, in wire form; its unsigned meta may come along' }),
          signature: Type.String({ maxLength: 200, description: 'Mode byte 0x00, then 65 bytes (secp256k1) or 64 (Ed25519)' }),
          orderbookId: BookId,
          type: OrderKind,
          selfTradePrevention: Type.Optional(SelfTradePreventionMode),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 250 },
    ),
    ocoLinks: Type.Optional(
      Type.Array(
        Type.Object(
          { a: Type.Integer({ minimum: 0, maximum: 249 }), b: Type.Integer({ minimum: 0, maximum: 249 }) },
          { additionalProperties: false },
        ),
        { maxItems: 125, description: 'Pairs of item indexes: when one order trades or ends, the other is cancelled' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SavedOrderSchema = Type.Object({
  ...WireOrderSchema.properties,
  meta: Type.Object({
    id: Type.String({ description: 'Order id, a decimal string' }),
    orderbookId: BookIdText,
    type: OrderKind,
    status: OrderStatus,
    reason: Type.Union([Type.String(), Type.Null()]),
    orderHash: Type.String(),
    signature: Type.String(),
    isAMMEnabled: Type.Boolean(),
    selfTradePrevention: SelfTradePreventionMode,
    filledAmount: Type.String({ description: 'Raw input token units spent so far' }),
    hcsInitialTransactionId: NotOnThisLedger,
    createdAt: IsoTime,
    updatedAt: IsoTime,
  }),
});

export const SaveResponse = Type.Object({
  orders: Type.Array(SavedOrderSchema),
  oco: Type.Optional(Type.Object({ links: Type.Array(Type.Object({ a: OrderId, b: OrderId })) })),
});

export const CancelBody = Type.Object(
  {
    orderIds: Type.Array(
      Type.Union([OrderId, Type.String({ pattern: ORDER_ID_TEXT_PATTERN })], {
        [FORM]: 'an order id, as a number or a string of its digits, e.g. 42 or "42"',
      }),
      { minItems: 1, maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);

export const CancelAllBody = Type.Object(
  {
    nonceFloor: {
      ...RawAmount,
      description: 'Every open order of the account with a lower nonce is cancelled',
      [FORM]: PLAIN_INTEGER_FORM,
    },
  },
  { additionalProperties: false },
);

export const CancelAfterBody = Type.Object(
  {
    timeoutSeconds: Type.Union(
      [Type.Integer({ minimum: 0, maximum: MAX_CANCEL_AFTER_SECONDS }), Type.String({ pattern: '^(0|[1-9][0-9]{0,4})$' })],
      {
        description: `Seconds from now after which every open order of the account is cancelled (0 to ${MAX_CANCEL_AFTER_SECONDS}, a number or a digit string); 0 disarms the switch`,
        [FORM]: `a whole number of seconds from 0 to ${MAX_CANCEL_AFTER_SECONDS} (0 disarms the switch), as a number or a string of digits, e.g. 60`,
      },
    ),
  },
  { additionalProperties: false },
);

export const CancelAfterResponse = Type.Object({
  timeoutSeconds: Type.Integer(),
  currentTime: Type.String({ format: 'date-time', description: 'Server time of the request, ISO 8601' }),
  triggerTime: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the switch fires, ISO 8601; null when disarmed',
  }),
});

export const CancelResponse = Type.Object({
  status: Type.Literal('PENDING'),
  message: Type.String(),
  accepted: Type.Array(OrderId, { description: 'Orders taken off their books; ORDER_CANCELED confirms each' }),
  skipped: Type.Array(OrderId, { description: 'Ids that were not cancelled' }),
  skippedDetails: Type.Array(
    Type.Object({ orderId: OrderId, reason: Type.Union([Type.Literal('NOT_FOUND'), Type.Literal('NOT_OPEN')]) }),
    { description: 'Why each skipped id was not cancelled' },
  ),
  nonceFloor: Type.Optional(Type.String({ description: '/cancel/all: the nonce floor applied' })),
});

export const OrdersQuery = Type.Object({
  status: Type.Optional(
    Type.String({
      description:
        'One status or a comma-separated list, case-insensitive: ACTIVE (or OPEN), PARTIALLY_FILLED, FILLED, CANCELED, EXPIRED, REJECTED',
    }),
  ),
  orderbookId: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String()),
});

export const OrderListItemSchema = Type.Object({
  id: OrderId,
  orderbookId: BookIdText,
  orderHash: Type.String(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  pair: Type.String({ description: 'BASE/QUOTE symbols' }),
  type: OrderKind,
  direction: Side,
  price: Type.String({ description: 'LIMIT: the limit price; MARKET: the average fill price' }),
  amount: Type.String({ description: 'Base size, display units' }),
  filledAmount: Type.String({ description: 'Base filled, display units' }),
  percentFilled: Type.String({ description: 'Percent of the size filled, two decimals ("33.33"), rounded down' }),
  status: OrderStatus,
  reason: Type.Union([Type.String(), Type.Null()]),
  total: Type.String({ description: 'Quote value, display units' }),
  nonce: Type.String(),
  deadline: Type.String({ description: 'Unix seconds' }),
  ocoLinkedOrderId: Type.Union([OrderId, Type.Null()]),
  hcsInitialTransactionId: NotOnThisLedger,
  sequence: Type.Integer({
    minimum: 1,
    description: "The `sequence` of the order's latest event: the user stream's events of this order above it are news",
  }),
});

export const OrdersResponse = Type.Object({
  orders: Type.Array(OrderListItemSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  lastUpdateId: Type.Integer({ description: "Id of the account's latest order event reflected here" }),
});

export const OrderParams = Type.Object({ orderId: Type.String() });
export const HistoryQuery = Type.Object({ page: Type.Optional(Type.String()), limit: Type.Optional(Type.String()) });

export const OrderFillSchema = Type.Object({
  tradeId: Type.Integer(),
  role: Type.Union([Type.Literal('maker'), Type.Literal('taker')]),
  price: Type.String(),
  amountBase: Type.String({ description: 'Display units' }),
  baseAmount: Type.String({ description: 'Raw units' }),
  quoteAmount: Type.String({ description: 'Raw units' }),
});

/** The live user stream's `sequence`: counts the events of one order from 1 (`ORDER_CREATED` is 1). */
export const EventSequence = Type.Integer({
  minimum: 1,
  description: "The event's place among its order's events, from 1 (CREATED is 1), as the live user stream counts them",
});

export const HistoryEventSchema = Type.Object({
  id: Type.String({ description: 'Event id, a decimal string; increasing per account' }),
  sequence: EventSequence,
  type: HistoryType,
  timestamp: Type.Integer(),
  txHash: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  fill: Type.Union([OrderFillSchema, Type.Null()]),
  htsResponseCode: Type.Null({ description: 'Always null here (no token-service transaction)' }),
});

export const HistoryResponse = Type.Object({
  orderId: OrderId,
  orderbookId: BookIdText,
  events: Type.Array(HistoryEventSchema),
  total: Type.Integer({ description: 'Events of the order in all' }),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export type OrderType = Static<typeof OrderKind>;
export type OrderSide = Static<typeof Side>;
export type OrderStatus = Static<typeof OrderStatus>;
/** A flag of an order request: a boolean, or the 0/1 that `GET /books` uses for its flags. */
export type RequestFlag = Static<typeof RequestFlag>;
/** One entry of `POST /orders/build`. A sell spends the base token and receives the quote token; a buy the reverse. */
export type OrderRequest = Static<typeof OrderRequestSchema>;
/** An order from `POST /orders/build`: the typed data to sign, and what the server says of it. */
export type BuiltOrder = Static<typeof BuildResponse>['orders'][number];
type SaveItem = Static<typeof SaveBody>['items'][number];
/**
 * One item of `POST /orders/save`. The route takes any `order` and checks it itself (so that a bad
 * one gets the order's own error code); what a client sends is the order as built.
 */
export type SignedOrder = Omit<SaveItem, 'order'> & { order: WireOrder };
/** An OCO pair of `POST /orders/save`, by item index. */
export type OcoLink = NonNullable<Static<typeof SaveBody>['ocoLinks']>[number];
/** An order as `POST /orders/save` answers it: the signed order plus server metadata. */
export type SavedOrder = Static<typeof SavedOrderSchema>;
export type SaveOrdersResult = Static<typeof SaveResponse>;
/** `POST /cancel` and `POST /cancel/all`: the orders are off their books; finality is `ORDER_CANCELED`. */
export type CancelResult = Static<typeof CancelResponse>;
export type CancelSkipReason = CancelResult['skippedDetails'][number]['reason'];
export type CancelAfterResult = Static<typeof CancelAfterResponse>;
/** One order of `GET /orders`; amounts are display decimals of the book's tokens. */
export type OrderListItem = Static<typeof OrderListItemSchema>;
export type OrdersPage = Static<typeof OrdersResponse>;
export type HistoryEventType = Static<typeof HistoryType>;
export type OrderFill = Static<typeof OrderFillSchema>;
export type HistoryEvent = Static<typeof HistoryEventSchema>;
/** `GET /orders/:orderId/history`: one page of the order's events, oldest first. */
export type OrderHistory = Static<typeof HistoryResponse>;
