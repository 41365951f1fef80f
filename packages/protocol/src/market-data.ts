/**
 * The public market-data routes' answers: books, depth, trades and quotes. Raw token amounts are
 * integer strings and display amounts decimal strings; neither is ever turned into a number.
 */
import { type Static, Type } from 'typebox';
import { QueryValue } from './query.js';

const DecimalString = Type.String({ description: 'Human-readable decimal' });
const NullableDecimal = Type.Union([DecimalString, Type.Null()]);
const Flag = Type.Union([Type.Literal(0), Type.Literal(1)]);
const BookStatus = Type.Union([Type.Literal('OPEN'), Type.Literal('CLOSED')]);
const Direction = Type.Union([Type.Literal('buy'), Type.Literal('sell')], { description: 'Taker side' });

export const OrderbookItem = Type.Object(
  {
    id: Type.Integer({ description: 'Order book id, used as :orderbookId' }),
    baseTokenId: Type.String({ description: 'Ledger id of the base token' }),
    quoteTokenId: Type.String({ description: 'Ledger id of the quote token' }),
    baseTokenEvmAddress: Type.String({ description: 'EVM address of the base token; use as inputToken/outputToken' }),
    quoteTokenEvmAddress: Type.String({ description: 'EVM address of the quote token' }),
    status: BookStatus,
    isAMMEnabled: Flag,
    isMarketHalted: Flag,
    baseTokenSymbol: Type.Union([Type.String(), Type.Null()]),
    quoteTokenSymbol: Type.Union([Type.String(), Type.Null()]),
    baseTokenDecimals: Type.Union([Type.Integer(), Type.Null()]),
    quoteTokenDecimals: Type.Union([Type.Integer(), Type.Null()]),
    tickStep: Type.String({ description: 'Price increment, quote per base' }),
    sizeStep: Type.String({ description: 'Increment of the base size of an order' }),
    lotSize: Type.String({
      pattern: '^(0|[1-9][0-9]*)$',
      description:
        "Smallest base size of an order, in the base token's smallest units (an integer string, as the live API sends it)",
    }),
    minNotional: Type.String({
      pattern: '^(0|[1-9][0-9]*)$',
      description: "Smallest quote value (price times size) of an order, in the quote token's smallest units (an integer string)",
    }),
    quotePrice: Type.String({ description: 'Price of the last trade; "0" for a book that never traded, as the live API sends' }),
    quotePrice24hPct: Type.Union([DecimalString, Type.Null()], {
      description: 'Change of the last price over 24 hours, percent, four decimals ("-0.3984"); null without a trade in them',
    }),
    quotePrice24hHigh: Type.String({ description: 'Highest trade price of the last 24 hours; "0" without a trade in them' }),
    quotePrice24hLow: Type.String({ description: 'Lowest trade price of the last 24 hours; "0" without a trade in them' }),
    baseVol24h: DecimalString,
    quoteVol24h: DecimalString,
    takerFeePips: Type.Integer({ description: '1 pip = 0.0001%' }),
    makerFeePips: Type.Integer(),
    createdAt: Type.String({ format: 'date-time', description: 'ISO-8601, UTC' }),
    updatedAt: Type.String({ format: 'date-time', description: 'ISO-8601, UTC' }),
  },
  { additionalProperties: false },
);

export const BooksResponse = Type.Object({
  orderbooks: Type.Array(OrderbookItem),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

const Level = Type.Tuple([DecimalString, DecimalString], { description: '[price, base size]' });

export const DepthResponse = Type.Object({
  orderbookId: Type.String({ description: 'Order book id, a decimal string' }),
  timestamp: Type.Integer({ description: 'Server time, unix ms' }),
  baseTokenId: Type.String(),
  quoteTokenId: Type.String(),
  bestBidQuote: NullableDecimal,
  bestAskQuote: NullableDecimal,
  spreadPercent: Type.Union([DecimalString, Type.Null()], {
    description: 'Spread relative to the mid price, percent, four decimals ("0.3984"); null without both sides',
  }),
  bids: Type.Array(Level, { description: 'Best (highest) first' }),
  asks: Type.Array(Level, { description: 'Best (lowest) first' }),
  lastUpdateId: Type.Integer({ description: 'Id of the last depth update included; diffs continue from lastUpdateId + 1' }),
});

export const Trade = Type.Object({
  tradeId: Type.Integer({ description: "The trade's id, as the fills of order histories name it (this exchange's addition)" }),
  timestamp: Type.Integer({ description: 'Execution time, unix ms' }),
  price: DecimalString,
  amountBase: Type.String({ description: 'Base amount, already adjusted for decimals' }),
  direction: Direction,
  transactionHash: Type.String({ description: 'Settlement transaction; empty until the trade settles' }),
});

export const TradesResponse = Type.Object({
  orderbookId: Type.String(),
  timestamp: Type.Integer({ description: 'Server time of the response, unix ms' }),
  trades: Type.Array(Trade),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

const RawAmount = Type.String({ description: 'Raw integer token units' });

const CandleInterval = Type.Union([Type.Literal('FIVEMIN'), Type.Literal('HOUR'), Type.Literal('DAY'), Type.Literal('WEEK')], {
  description: 'Width of each candle',
});

export const BookCandle = Type.Object({
  startTimestampSeconds: Type.Integer({ description: 'Start of the bucket, unix seconds (weeks start on Monday 00:00 UTC)' }),
  open: Type.String({ description: 'Price of the first trade in the bucket, quote per base, as the tape prints prices' }),
  high: DecimalString,
  low: DecimalString,
  close: Type.String({ description: 'Price of the last trade in the bucket' }),
  baseVolume: Type.String({ description: 'Base traded in the bucket, raw integer units' }),
  quoteVolume: Type.String({ description: 'Quote traded in the bucket, raw integer units' }),
  tradeCount: Type.Integer({ description: 'Trades in the bucket' }),
});

export const CandlesResponse = Type.Object({
  orderbookId: Type.String({ description: 'Order book id, a decimal string, as /depth and /trades give it' }),
  interval: CandleInterval,
  candles: Type.Array(BookCandle, { description: 'Oldest first; buckets without trades are left out' }),
});

export const ExactInputQuoteResponse = Type.Object({
  outputToken: Type.String(),
  snappedInputAmount: RawAmount,
  consumedInputAmount: RawAmount,
  expectedOutputAmount: RawAmount,
  suggestedOutputAmount: RawAmount,
  slippageBps: Type.Integer(),
  fillable: Type.Boolean(),
});

export const ExactOutputQuoteResponse = Type.Object({
  inputToken: Type.String(),
  requestedOutputAmount: RawAmount,
  snappedOutputAmount: RawAmount,
  expectedInputAmount: RawAmount,
  suggestedInputAmount: RawAmount,
  slippageBps: Type.Integer(),
  fillable: Type.Boolean(),
});

/** 0 or 1, as the API sends its flags. */
export type Flag = Static<typeof Flag>;
export type BookStatus = Static<typeof BookStatus>;
/** One element of `GET /books`. */
export type OrderbookItem = Static<typeof OrderbookItem>;
export type BooksPage = Static<typeof BooksResponse>;
/** `[price, base size]`, both display decimals. */
export type DepthLevel = Static<typeof Level>;
/** `GET /depth/:orderbookId`. */
export type DepthSnapshot = Static<typeof DepthResponse>;
export type TradeDirection = Static<typeof Direction>;
export type Trade = Static<typeof Trade>;
/** `GET /trades/:orderbookId` (RecentTradesResult). */
export type RecentTrades = Static<typeof TradesResponse>;
/** One candle of `GET /books/:orderbookId/candles`. */
export type BookCandle = Static<typeof BookCandle>;
/** `GET /books/:orderbookId/candles`: prices as display decimals, volumes raw integer strings. */
export type BookCandles = Static<typeof CandlesResponse>;
/** `GET /books/:orderbookId/quote/exact-input`; amounts are raw integer strings. */
export type ExactInputQuote = Static<typeof ExactInputQuoteResponse>;
/** `GET /books/:orderbookId/quote/exact-output`; amounts are raw integer strings. */
export type ExactOutputQuote = Static<typeof ExactOutputQuoteResponse>;

/** Path ids arrive as strings; the route decides whether a malformed one is a 400 or a 404. */
export const BookParams = Type.Object({ orderbookId: Type.String({ maxLength: 64 }) });

export const PageQuery = Type.Object({ page: Type.Optional(QueryValue), limit: Type.Optional(QueryValue) });
export const TradesQuery = Type.Object({
  sort: Type.Optional(QueryValue),
  page: Type.Optional(QueryValue),
  limit: Type.Optional(QueryValue),
});
export const CandlesQuery = Type.Object({
  interval: Type.Optional({ ...QueryValue, description: 'FIVEMIN, HOUR, DAY or WEEK; required' }),
  from: Type.Optional({ ...QueryValue, description: "Unix seconds; default: the route's default number of candles up to `to`" }),
  to: Type.Optional({ ...QueryValue, description: 'Unix seconds; default: now' }),
});
const PoolOptIn = Type.Optional({
  ...QueryValue,
  description:
    "On a book with isAMMEnabled: 1, true (or 1) includes the book's pool, as an order that opts in (isAMMEnabled in /orders/build) trades it; by default the quote is the book alone, what an order without the opt-in gets",
});
export const ExactInputQuery = Type.Object({
  inputToken: Type.Optional(QueryValue),
  inputAmount: Type.Optional(QueryValue),
  isAMMEnabled: PoolOptIn,
});
export const ExactOutputQuery = Type.Object({
  outputToken: Type.Optional(QueryValue),
  outputAmount: Type.Optional(QueryValue),
  isAMMEnabled: PoolOptIn,
});
