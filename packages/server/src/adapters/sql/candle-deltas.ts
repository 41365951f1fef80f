/** Width of the candles that 24-hour figures are summed from. */
export const CANDLE_MS = 5 * 60 * 1000;

export const candleStart = (executedAt: number): number => executedAt - (executedAt % CANDLE_MS);

/** A trade as the candles see it. */
export interface CandleTrade {
  readonly bookId: number;
  readonly executedAt: number;
  readonly priceTicks: bigint;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
  /** Null: the taker swapped with the book's pool (a routed swap). */
  readonly makerOrderId: number | null;
}

/** What a run of trades adds to one candle. */
export interface CandleDelta {
  readonly bookId: number;
  readonly start: number;
  readonly open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  base: bigint;
  quote: bigint;
  count: number;
  routedBase: bigint;
  routedQuote: bigint;
  routedCount: number;
}

const NOTHING_TRADED = { base: 0n, quote: 0n, count: 0, routedBase: 0n, routedQuote: 0n, routedCount: 0 };

/**
 * The trades, in order, folded per book and 5-minute candle. Every trade of the tape counts, a
 * taker's swap with the book's pool too, so the candles (and the 24-hour figures summed from them)
 * agree with the tape; the routed swaps are also summed apart, because the pool's own candles count
 * them as well and the exchange-wide volumes must count them once.
 */
export function candleDeltas(trades: readonly CandleTrade[]): CandleDelta[] {
  const touched = new Map<string, CandleDelta>();
  for (const trade of trades) {
    const start = candleStart(trade.executedAt);
    const key = `${trade.bookId}:${start}`;
    let delta = touched.get(key);
    if (delta === undefined) {
      const price = trade.priceTicks;
      delta = { bookId: trade.bookId, start, open: price, high: price, low: price, close: price, ...NOTHING_TRADED };
      touched.set(key, delta);
    }
    if (trade.priceTicks > delta.high) delta.high = trade.priceTicks;
    if (trade.priceTicks < delta.low) delta.low = trade.priceTicks;
    delta.close = trade.priceTicks;
    delta.base += trade.baseAmount;
    delta.quote += trade.quoteAmount;
    delta.count++;
    if (trade.makerOrderId === null) {
      delta.routedBase += trade.baseAmount;
      delta.routedQuote += trade.quoteAmount;
      delta.routedCount++;
    }
  }
  return [...touched.values()];
}
