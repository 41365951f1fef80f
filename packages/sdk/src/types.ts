/**
 * Response shapes of the public market-data routes, as they travel on the wire. Raw token amounts
 * are integer strings and display amounts decimal strings; neither is ever turned into a number.
 */

/** 0 or 1, as the API sends its flags. */
export type Flag = 0 | 1;

export type BookStatus = 'OPEN' | 'CLOSED';

/** One element of `GET /books`. */
export interface OrderbookItem {
  /** Order book id, used as `orderbookId`. */
  id: number;
  /** Ledger ids (`0.0.X`) of the base and quote tokens. */
  baseTokenId: string;
  quoteTokenId: string;
  /** EVM addresses of the tokens: use them as `inputToken` / `outputToken`. */
  baseTokenEvmAddress: string;
  quoteTokenEvmAddress: string;
  status: BookStatus;
  isAMMEnabled: Flag;
  isMarketHalted: Flag;
  baseTokenSymbol: string | null;
  quoteTokenSymbol: string | null;
  baseTokenDecimals: number | null;
  quoteTokenDecimals: number | null;
  /** Price increment, quote per base, display decimal. */
  tickStep: string;
  /** Increment of an order's base size, display decimal. */
  sizeStep: string;
  /** Smallest base size of an order, display decimal. */
  lotSize: string;
  /** Smallest quote value of an order, display decimal. */
  minNotional: string;
  /** Price of the last trade, display decimal. */
  quotePrice: string | null;
  /** Change over 24 hours, percent, a decimal string ("-0.3984"); for display only. */
  quotePrice24hPct: string | null;
  quotePrice24hHigh: string | null;
  quotePrice24hLow: string | null;
  /** 24-hour volumes, display decimals. */
  baseVol24h: string;
  quoteVol24h: string;
  /** Fee rates in pips: 1 pip = 0.0001%. */
  takerFeePips: number;
  makerFeePips: number;
  /** ISO-8601, UTC. */
  createdAt: string;
  updatedAt: string;
}

export interface BooksPage {
  orderbooks: OrderbookItem[];
  total: number;
  page: number;
  limit: number;
}

/** `[price, base size]`, both display decimals. */
export type DepthLevel = [price: string, size: string];

/** `GET /depth/:orderbookId`. */
export interface DepthSnapshot {
  /** The book's id as a decimal string, as the API sends it here. */
  orderbookId: string;
  /** Server time, unix ms. */
  timestamp: number;
  baseTokenId: string;
  quoteTokenId: string;
  bestBidQuote: string | null;
  bestAskQuote: string | null;
  /** Spread relative to the mid price, percent, a decimal string; for display only. */
  spreadPercent: string | null;
  /** Best (highest) first. */
  bids: DepthLevel[];
  /** Best (lowest) first. */
  asks: DepthLevel[];
  /** Depth diffs continue from `lastUpdateId + 1`. */
  lastUpdateId: number;
}

export type TradeDirection = 'buy' | 'sell';

export interface Trade {
  /** Execution time, unix ms. */
  timestamp: number;
  /** Quote per base, display decimal. */
  price: string;
  /** Base amount, display decimal (already adjusted for decimals). */
  amountBase: string;
  /** Side of the taker. */
  direction: TradeDirection;
  /** Settlement transaction; empty until the trade settles. */
  transactionHash: string;
}

/** `GET /trades/:orderbookId` (RecentTradesResult). */
export interface RecentTrades {
  /** The book's id as a decimal string, as the API sends it here. */
  orderbookId: string;
  /** Server time of the response, unix ms. */
  timestamp: number;
  trades: Trade[];
  total: number;
  page: number;
  limit: number;
}

/** `GET /books/:orderbookId/quote/exact-input`; amounts are raw integer strings. */
export interface ExactInputQuote {
  outputToken: string;
  /** The input floored onto the grid: the amount to submit. */
  snappedInputAmount: string;
  /** The part of `snappedInputAmount` the book absorbed. */
  consumedInputAmount: string;
  /** Expected output, no slippage. */
  expectedOutputAmount: string;
  /** Expected output less the slippage buffer: use it as `outputAmount` when building the order. */
  suggestedOutputAmount: string;
  slippageBps: number;
  /** False when the book has no liquidity at all. */
  fillable: boolean;
}

/** `GET /books/:orderbookId/quote/exact-output`; amounts are raw integer strings. */
export interface ExactOutputQuote {
  inputToken: string;
  requestedOutputAmount: string;
  /** Amount actually received; equals the request when it is on the grid. */
  snappedOutputAmount: string;
  /** Expected cost, no slippage. */
  expectedInputAmount: string;
  /** Cost raised by the slippage buffer: the safe `inputAmount` when building the order. */
  suggestedInputAmount: string;
  slippageBps: number;
  /** False when the book is shallower than the requested output. */
  fillable: boolean;
}

/** `GET /signature/domain`: the EIP-712 domain orders are signed against. */
export interface SignatureDomain {
  name: string;
  version: string;
  chainId: number;
  /** The reactor's address. */
  verifyingContract: string;
}

/** `GET /health`. */
export interface Health {
  status: 'ok';
  network: string;
  /** Server time, unix ms. */
  time: number;
  uptimeSeconds: number;
  /** Number of order books loaded. */
  books: number;
}
