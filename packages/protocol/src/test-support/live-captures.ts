/**
 * What the live service sends, as `live-captures.md` records it (captures of a public client of
 * the live order book API, 2026-09): this project's own encoding of those facts as test data,
 * for the tests that hold this service and the SDK to them. Values are the captured ones where the
 * capture gives them, and of the captured type and unit where it gives only those.
 */

/** The live mainnet's HBAR/USDC book as `GET /books` lists it. */
export const LIVE_BOOK = {
  id: '1',
  baseTokenId: '0.0.0',
  quoteTokenId: '0.0.456858',
  baseTokenEvmAddress: '0x0000000000000000000000000000000000000000',
  quoteTokenEvmAddress: '0x000000000000000000000000000000000006f89a',
  status: 'OPEN',
  isAMMEnabled: 0,
  isMarketHalted: 0,
  baseTokenSymbol: 'HBAR',
  quoteTokenSymbol: 'USDC',
  baseTokenDecimals: 8,
  quoteTokenDecimals: 6,
  tickStep: '0.0000001',
  sizeStep: '0.1',
  lotSize: '10000000',
  minNotional: '15000000',
  quotePrice: '0.08594304708173912',
  quotePrice24hPct: '-0.5403922211096868',
  quotePrice24hHigh: '0.0871',
  quotePrice24hLow: '0.0851',
  baseVol24h: '1520.3',
  quoteVol24h: '130.66',
  takerFeePips: 1200,
  makerFeePips: 0,
  createdAt: '2026-07-14T09:21:05.000Z',
  updatedAt: '2026-09-02T17:40:11.000Z',
} as const;

/** A live book that never traded: "0" for its prices, null for the change. */
export const LIVE_UNTRADED_BOOK = {
  ...LIVE_BOOK,
  id: '5',
  quotePrice: '0',
  quotePrice24hPct: null,
  quotePrice24hHigh: '0',
  quotePrice24hLow: '0',
  baseVol24h: '0',
  quoteVol24h: '0',
} as const;

/** A page of `GET /books`. */
export const LIVE_BOOKS_PAGE = { orderbooks: [LIVE_BOOK, LIVE_UNTRADED_BOOK], total: 5, page: 1, limit: 20 } as const;

/** A `/ws/depth` message: a Binance-style diff, no envelope; a size need not sit on the lot grid. */
export const LIVE_DEPTH_DIFF = {
  orderbookId: '3',
  firstUpdateId: 41,
  finalUpdateId: 43,
  timestamp: 1_757_000_000_000,
  asks: [['102.1', '3.696778']],
  bids: [['101.9', '0']],
} as const;

/** The `/ws/user-events` messages of one order: created, then cancelled by its owner. */
export const LIVE_ORDER_CREATED = {
  type: 'ORDER_CREATED',
  orderbookId: '3',
  orderId: '3494124',
  swapper: '0x2183d1f54d1b4e7a60a1fe0d8a34c19a9c6b1e2f',
  timestamp: 1_757_000_000_500,
  sequence: 1,
  side: 'sell',
  price: '102.1',
  amount: '0.01',
  orderType: 'LIMIT',
  expiresAt: 1_764_776_000_000,
  makerOnly: 1,
  takerOnce: 0,
} as const;

export const LIVE_ORDER_CANCELED = {
  type: 'ORDER_CANCELED',
  orderbookId: '3',
  orderId: '3494124',
  swapper: '0x2183d1f54d1b4e7a60a1fe0d8a34c19a9c6b1e2f',
  timestamp: 1_757_000_060_000,
  sequence: 2,
  reason: 'USER',
} as const;

/** An order of `GET /orders`: its id a number. */
export const LIVE_LISTED_ORDER = {
  id: 3494124,
  createdAt: '2026-09-04T15:33:20.500Z',
  pair: 'WBTC/USDC',
  type: 'LIMIT',
  direction: 'sell',
  price: '102.1',
  amount: '0.01',
  percentFilled: '0.00',
  status: 'ACTIVE',
  total: '1.021',
  nonce: '1757000000412345',
  deadline: '1764776000',
  ocoLinkedOrderId: null,
  hcsInitialTransactionId: null,
} as const;

/** `GET /orders/:orderId/history` of the same order: the order id a number, event ids strings. */
export const LIVE_HISTORY = {
  orderId: 3494124,
  orderbookId: '3',
  events: [
    {
      id: '7797743',
      type: 'CREATED',
      timestamp: 1_757_000_000_500,
      txHash: null,
      reason: null,
      fill: null,
      htsResponseCode: null,
    },
    {
      id: '7797790',
      type: 'CANCELED',
      timestamp: 1_757_000_060_000,
      txHash: null,
      reason: 'USER',
      fill: null,
      htsResponseCode: null,
    },
  ],
  total: 2,
  page: 1,
  limit: 100,
} as const;

/** The `meta` of an order in the answer of `POST /orders/save`: its id a string. */
export const LIVE_SAVED_META = {
  id: '3494124',
  orderbookId: '3',
  type: 'LIMIT',
  status: 'ACTIVE',
  orderHash: '0x5f0c6e5b1d5ab8e4f0f6a4d8c2b6a3e1d9c7b5a3f1e9d7c5b3a1f0e2d4c6b8a0',
  signature: `0x00${'ab'.repeat(65)}`,
  isAMMEnabled: false,
  filledAmount: '0',
  hcsInitialTransactionId: null,
  createdAt: '2026-09-04T15:33:20.500Z',
  updatedAt: '2026-09-04T15:33:20.500Z',
} as const;
