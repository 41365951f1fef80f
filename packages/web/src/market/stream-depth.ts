import { percentText } from '@dex/core';
import type { DepthSnapshot, OrderBookView } from '@dex/sdk';
import { parseExact } from '../decimal.js';

/** Digits of `spreadPercent`, as `GET /depth` gives it ("0.3984"). */
const SPREAD_DIGITS = 4;

/** The spread relative to the mid price in percent, rounded as `GET /depth` rounds it; null without both sides. */
export function spreadPercentOf(bestBid: string | undefined, bestAsk: string | undefined): string | null {
  if (bestBid === undefined || bestAsk === undefined) return null;
  const bid = parseExact(bestBid);
  const ask = parseExact(bestAsk);
  const scale = Math.max(bid.scale, ask.scale);
  const at = (value: typeof bid) => value.units * 10n ** BigInt(scale - value.scale);
  // (ask - bid) / ((ask + bid) / 2) * 100
  const sum = at(ask) + at(bid);
  return sum === 0n ? null : percentText(2n * (at(ask) - at(bid)), sum, SPREAD_DIGITS, 'nearest');
}

/**
 * A streamed book in the shape of a `GET /depth` answer, so the ladder and chart draw both alike.
 * The token ids come from the last snapshot the page read; the stream does not repeat them.
 */
export function depthOfView(view: OrderBookView, tokens: Pick<DepthSnapshot, 'baseTokenId' | 'quoteTokenId'>): DepthSnapshot {
  const bids = view.bids();
  const asks = view.asks();
  const bestBid = bids[0]?.[0];
  const bestAsk = asks[0]?.[0];
  return {
    orderbookId: String(view.orderbookId),
    timestamp: view.timestamp,
    baseTokenId: tokens.baseTokenId,
    quoteTokenId: tokens.quoteTokenId,
    bestBidQuote: bestBid ?? null,
    bestAskQuote: bestAsk ?? null,
    spreadPercent: spreadPercentOf(bestBid, bestAsk),
    bids,
    asks,
    lastUpdateId: view.lastUpdateId,
  };
}
