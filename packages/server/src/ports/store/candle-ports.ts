/** A book's trading in one 5-minute window, folded in as its trades are stored (trade-store.ts). */
export interface Candle {
  readonly bookId: number;
  /** Unix ms, a multiple of five minutes. */
  readonly startMs: number;
  readonly openTicks: bigint;
  readonly highTicks: bigint;
  readonly lowTicks: bigint;
  readonly closeTicks: bigint;
  /** Raw base units traded: every trade of the tape, the taker's swaps with the book's pool too. */
  readonly baseVolume: bigint;
  /** Raw quote units traded, as baseVolume. */
  readonly quoteVolume: bigint;
  readonly tradeCount: number;
  /** Of those, raw base units of the swaps with the book's pool, which the pool's candles count as well. */
  readonly routedBaseVolume: bigint;
  readonly routedQuoteVolume: bigint;
  readonly routedTradeCount: number;
}

/** Reads the 5-minute candles, the source of every price history and volume of the data API. */
export interface CandleStore {
  /** Candles of a book starting in [fromMs, toMs), oldest first. */
  range(bookId: number, fromMs: number, toMs: number): Promise<Candle[]>;
  /** The last candle of a book that starts before `atMs`, or undefined. */
  lastBefore(bookId: number, atMs: number): Promise<Candle | undefined>;
}
