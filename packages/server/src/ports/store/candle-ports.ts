/** A book's trading in one 5-minute window, folded in as its trades are stored (trade-store.ts). */
export interface Candle {
  readonly bookId: number;
  /** Unix ms, a multiple of five minutes. */
  readonly startMs: number;
  readonly openTicks: bigint;
  readonly highTicks: bigint;
  readonly lowTicks: bigint;
  readonly closeTicks: bigint;
  /** Raw base units traded. */
  readonly baseVolume: bigint;
  /** Raw quote units traded. */
  readonly quoteVolume: bigint;
  readonly tradeCount: number;
}

/** Reads the 5-minute candles, the source of every price history and volume of the data API. */
export interface CandleStore {
  /** Candles of a book starting in [fromMs, toMs), oldest first. */
  range(bookId: number, fromMs: number, toMs: number): Promise<Candle[]>;
  /** The last candle of a book that starts before `atMs`, or undefined. */
  lastBefore(bookId: number, atMs: number): Promise<Candle | undefined>;
}
