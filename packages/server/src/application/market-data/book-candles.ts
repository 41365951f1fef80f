import { largest, type MarketGrid, smallest } from '@dex/core';
import type { BookCandle } from '@dex/protocol';
import { bucketStart, type HistoryWindow } from '../../domain/data-api/history-window.js';
import type { Candle, CandleStore } from '../../ports/store/candle-ports.js';

/** A book's trading in one bucket of a window, in ticks and raw units: the stored candle's figures, folded. */
export type FoldedCandle = Omit<Candle, 'bookId'>;

/** Adds a later 5-minute candle of the same bucket to what the bucket holds so far. */
function merge(folded: FoldedCandle, candle: Candle): FoldedCandle {
  return {
    startMs: folded.startMs,
    openTicks: folded.openTicks,
    highTicks: largest([folded.highTicks, candle.highTicks]),
    lowTicks: smallest([folded.lowTicks, candle.lowTicks]),
    closeTicks: candle.closeTicks,
    baseVolume: folded.baseVolume + candle.baseVolume,
    quoteVolume: folded.quoteVolume + candle.quoteVolume,
    tradeCount: folded.tradeCount + candle.tradeCount,
    routedBaseVolume: folded.routedBaseVolume + candle.routedBaseVolume,
    routedQuoteVolume: folded.routedQuoteVolume + candle.routedQuoteVolume,
    routedTradeCount: folded.routedTradeCount + candle.routedTradeCount,
  };
}

/**
 * Folds a book's 5-minute candles (oldest first) into the buckets of `window`: the open of the
 * first, the close of the last, the extremes of all, volumes and trade counts summed. Buckets
 * without a candle (no trade) are left out.
 */
export function foldCandles(candles: readonly Candle[], window: HistoryWindow): FoldedCandle[] {
  const folded: FoldedCandle[] = [];
  for (const candle of candles) {
    const startMs = bucketStart(candle.startMs, window.interval);
    const last = folded.at(-1);
    if (last !== undefined && last.startMs === startMs) {
      folded[folded.length - 1] = merge(last, candle);
    } else {
      const { bookId: _bookId, ...figures } = candle;
      folded.push({ ...figures, startMs });
    }
  }
  return folded;
}

/** A folded candle as the wire shows it: prices through the book's grid, volumes as raw integer strings. */
export function bookCandleBody(grid: MarketGrid, candle: FoldedCandle): BookCandle {
  return {
    startTimestampSeconds: candle.startMs / 1_000,
    open: grid.formatPrice(candle.openTicks),
    high: grid.formatPrice(candle.highTicks),
    low: grid.formatPrice(candle.lowTicks),
    close: grid.formatPrice(candle.closeTicks),
    baseVolume: candle.baseVolume.toString(),
    quoteVolume: candle.quoteVolume.toString(),
    tradeCount: candle.tradeCount,
  };
}

/** The book's candles over a window, oldest first, from the store's 5-minute candles. */
export async function readBookCandles(
  store: CandleStore,
  bookId: number,
  grid: MarketGrid,
  window: HistoryWindow,
): Promise<BookCandle[]> {
  const candles = await store.range(bookId, window.startMs, window.endMs);
  return foldCandles(candles, window).map((candle) => bookCandleBody(grid, candle));
}
