import { Type } from 'typebox';

const RawAmount = Type.String({ pattern: '^(0|[1-9][0-9]{0,77})$', description: 'Raw token units, integer string' });
const Address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'EVM address' });
const BookId = Type.Union([Type.Integer({ minimum: 1 }), Type.String({ maxLength: 20 })], {
  description: 'Order book id, as a number or a string',
});
const OrderKind = Type.Union([Type.Literal('LIMIT'), Type.Literal('MARKET')]);
const OrderId = Type.Integer({ minimum: 1, description: 'Order id' });
const OrderStatus = Type.Union([
  Type.Literal('OPEN'),
  Type.Literal('PARTIALLY_FILLED'),
  Type.Literal('FILLED'),
  Type.Literal('CANCELED'),
  Type.Literal('EXPIRED'),
  Type.Literal('REJECTED'),
]);
const HistoryType = Type.Union([
  Type.Literal('CREATED'),
  Type.Literal('PARTIAL_FILL'),
  Type.Literal('FILLED'),
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
      }),
    ),
    inputToken: Address,
    inputAmount: RawAmount,
    outputToken: Address,
    outputAmount: { ...RawAmount, description: 'Minimum to receive, raw units ("1" for a MARKET order)' },
    recipient: Type.Optional(Address),
    makerOnly: Type.Optional(Type.Boolean()),
    takerOnce: Type.Optional(Type.Boolean()),
    isAMMEnabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const OrderRequests = Type.Array(OrderRequestSchema, { minItems: 1, maxItems: 250 });
export const BuildBody = Type.Union([
  Type.Object({ orderRequests: OrderRequests }, { additionalProperties: false }),
  OrderRequests,
]);

export const BuildResponse = Type.Object({
  orders: Type.Array(
    Type.Object({
      ...WireOrderSchema.properties,
      meta: Type.Object({
        orderbookId: Type.Integer(),
        type: OrderKind,
        side: Type.Union([Type.Literal('buy'), Type.Literal('sell')]),
        orderHash: Type.String({ description: 'The EIP-712 digest of the order (what an Ed25519 key signs)' }),
      }),
    }),
  ),
});

export const SaveBody = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          order: Type.Unknown({ description: 'The order exactly as built, in wire form' }),
          signature: Type.String({ maxLength: 200, description: 'Mode byte 0x00, then 65 bytes (secp256k1) or 64 (Ed25519)' }),
          orderbookId: BookId,
          type: OrderKind,
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
    id: OrderId,
    orderbookId: Type.Integer(),
    type: OrderKind,
    status: OrderStatus,
    reason: Type.Union([Type.String(), Type.Null()]),
    orderHash: Type.String(),
    filledAmount: Type.String({ description: 'Raw input token units spent so far' }),
    createdAt: Type.Integer({ description: 'Unix ms' }),
  }),
});

export const SaveResponse = Type.Object({
  orders: Type.Array(SavedOrderSchema),
  oco: Type.Optional(Type.Object({ links: Type.Array(Type.Object({ a: OrderId, b: OrderId })) })),
});

export const CancelBody = Type.Object(
  {
    orderIds: Type.Array(Type.Union([OrderId, Type.String({ pattern: '^[1-9][0-9]{0,15}$' })]), {
      minItems: 1,
      maxItems: 500,
    }),
  },
  { additionalProperties: false },
);

export const CancelAllBody = Type.Object(
  { nonceFloor: { ...RawAmount, description: 'Every open order of the account with a lower nonce is cancelled' } },
  { additionalProperties: false },
);

export const CancelResponse = Type.Object({
  status: Type.Literal('PENDING'),
  accepted: Type.Array(OrderId),
  skipped: Type.Array(
    Type.Object({ orderId: OrderId, reason: Type.Union([Type.Literal('NOT_FOUND'), Type.Literal('NOT_OPEN')]) }),
  ),
});

export const OrdersQuery = Type.Object({
  status: Type.Optional(Type.String({ description: 'One status or a comma-separated list' })),
  orderbookId: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String()),
});

export const OrderListItemSchema = Type.Object({
  id: OrderId,
  orderbookId: Type.Integer(),
  orderHash: Type.String(),
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
  pair: Type.String({ description: 'BASE/QUOTE symbols' }),
  type: OrderKind,
  direction: Type.Union([Type.Literal('buy'), Type.Literal('sell')]),
  price: Type.String({ description: 'LIMIT: the limit price; MARKET: the average fill price' }),
  amount: Type.String({ description: 'Base size, display units' }),
  filledAmount: Type.String({ description: 'Base filled, display units' }),
  percentFilled: Type.Number(),
  status: OrderStatus,
  reason: Type.Union([Type.String(), Type.Null()]),
  total: Type.String({ description: 'Quote value, display units' }),
  nonce: Type.String(),
  deadline: Type.Integer({ description: 'Unix seconds' }),
  ocoLinkedOrderId: Type.Union([OrderId, Type.Null()]),
});

export const OrdersResponse = Type.Object({
  orders: Type.Array(OrderListItemSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  lastUpdateId: Type.Integer({ description: "Id of the account's latest order event reflected here" }),
});

export const OrderParams = Type.Object({ orderId: Type.String() });

export const HistoryResponse = Type.Object({
  orderId: OrderId,
  orderbookId: Type.Integer(),
  events: Type.Array(
    Type.Object({
      id: Type.Integer(),
      type: HistoryType,
      timestamp: Type.Integer(),
      txHash: Type.Union([Type.String(), Type.Null()]),
      reason: Type.Union([Type.String(), Type.Null()]),
      fill: Type.Union([
        Type.Object({
          tradeId: Type.Integer(),
          role: Type.Union([Type.Literal('maker'), Type.Literal('taker')]),
          price: Type.String(),
          amountBase: Type.String({ description: 'Display units' }),
          baseAmount: Type.String({ description: 'Raw units' }),
          quoteAmount: Type.String({ description: 'Raw units' }),
        }),
        Type.Null(),
      ]),
    }),
  ),
  total: Type.Integer(),
});
