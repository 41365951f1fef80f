import { largest, type Ratio, ratio, smallest } from '@dex/core';
import { type HistoryWindow, type Interval, windowOf } from '../../domain/data-api/history-window.js';
import {
  type BookPrice,
  floorOf,
  plus,
  rateThrough,
  TINYBAR_PER_COIN,
  type TokenRate,
  times,
  ZERO,
} from '../../domain/data-api/native-rates.js';
import { heldValues, swapValue } from '../../domain/data-api/pool-value.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import type { Clock } from '../../ports/clock.js';
import type { Candle, CandleStore } from '../../ports/store/candle-ports.js';
import type { PoolRecord } from '../../ports/store/pool-ports.js';
import type { Bucket, HistoryBuckets } from './history-buckets.js';
import { type MarketPrices, tinybarPrice, tinybarValue, usdValue, wholeUnit } from './market-prices.js';

/** A token's candle: prices per whole token and volume in tinybar, exact; USD figures as display numbers. */
export interface TokenCandle {
  readonly tokenId: string;
  readonly open: bigint;
  readonly high: bigint;
  readonly low: bigint;
  readonly close: bigint;
  /** Volume-weighted average, exact (it has a fraction). */
  readonly avg: Ratio;
  readonly openUsd: number;
  readonly highUsd: number;
  readonly lowUsd: number;
  readonly closeUsd: number;
  readonly avgUsd: number;
  readonly volume: bigint;
  readonly liquidity: bigint;
  readonly volumeUsd: number;
  readonly liquidityUsd: number;
  /** When the figures are as of: the end of the bucket, or now for the running one. */
  readonly timestampSeconds: number;
  readonly startTimestampSeconds: number;
}

/** A token in one bucket: its price at the end and what it traded, tinybar. */
export interface TokenActivity {
  readonly startMs: number;
  /** Tinybar per whole token, the last price by the end of the bucket. */
  readonly price: bigint;
  /** Tinybar traded in the bucket. */
  readonly volume: bigint;
  /** Tinybar of the token held in the pools at the end of the bucket. */
  readonly liquidity: bigint;
}

/** The exchange's volume in one bucket. */
export interface VolumePoint {
  readonly startMs: number;
  readonly tinybar: Ratio;
  readonly usd: number;
  readonly trades: number;
}

/** The native coin's USD price at the end of one bucket. */
export interface NativeUsdPoint {
  readonly startMs: number;
  readonly usd: number;
}

function sum(values: readonly bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n);
}

/** Raw units of `token` a book traded in a bucket, its swaps with its pool included. */
function tradedOf(book: BookPrice, candles: readonly Candle[], token: string): bigint {
  return sum(candles.map((candle) => (token === book.baseId ? candle.baseVolume : candle.quoteVolume)));
}

/**
 * Raw units of `token` a book traded in a bucket against resting orders: the swaps with its pool
 * are left out, as the pool's own candles count them and the exchange counts each trade once.
 */
function volumeOf(book: BookPrice, candles: readonly Candle[], token: string): bigint {
  const routed = sum(candles.map((candle) => (token === book.baseId ? candle.routedBaseVolume : candle.routedQuoteVolume)));
  return tradedOf(book, candles, token) - routed;
}

function holds(book: BookPrice, token: TokenRecord): boolean {
  return book.baseId === token.id || book.quoteId === token.id;
}

/**
 * Tinybar `token` traded in a bucket, at its rate at the end of the bucket: in the books that hold
 * it, and in and out of the pools that hold it.
 */
function tokenVolume(
  token: TokenRecord,
  rate: Ratio,
  books: readonly BookPrice[],
  pools: readonly PoolRecord[],
  bucket: Bucket,
): Ratio {
  const mine = books.filter((book) => holds(book, token));
  let raw = sum(mine.map((book) => volumeOf(book, bucket.candles.get(book.bookId) ?? [], token.id)));
  for (const pool of pools) {
    const isA = pool.tokenAId === token.id;
    if (!isA && pool.tokenBId !== token.id) continue;
    for (const candle of bucket.poolCandles.get(pool.id) ?? []) raw += isA ? candle.aIn + candle.aOut : candle.bIn + candle.bOut;
  }
  return times(rate, { num: raw, den: 1n });
}

/** Tinybar of `token` the pools hold at the end of a bucket (its side of each pool that holds it). */
function tokenLiquidity(token: TokenRecord, pools: readonly PoolRecord[], bucket: Bucket): Ratio {
  let held = ZERO;
  for (const pool of pools) {
    const close = bucket.poolCloses.get(pool.id);
    if (close === undefined || (pool.tokenAId !== token.id && pool.tokenBId !== token.id)) continue;
    const [a, b] = heldValues(pool, bucket.snapshot.rates, close.reserves.a, close.reserves.b);
    held = plus(held, pool.tokenAId === token.id ? a : b);
  }
  return held;
}

/** What the pools held at the end of a bucket, and what their swaps moved in it, tinybar. */
export function poolFigures(pool: PoolRecord, bucket: Bucket): { liquidity: Ratio; volume: Ratio; swaps: number } {
  const close = bucket.poolCloses.get(pool.id);
  const [a, b] = close === undefined ? [ZERO, ZERO] : heldValues(pool, bucket.snapshot.rates, close.reserves.a, close.reserves.b);
  let volume = ZERO;
  let swaps = 0;
  for (const candle of bucket.poolCandles.get(pool.id) ?? []) {
    volume = plus(volume, swapValue(pool, bucket.snapshot.rates, candle));
    swaps += candle.swaps;
  }
  return { liquidity: plus(a, b), volume, swaps };
}

/**
 * Histories aggregated from the books' and pools' 5-minute candles: token candles priced in tinybar
 * and USD, token activity, the exchange's volume and the native coin's USD price. Each bucket is
 * priced as of its end, with every book's last price and every pool's reserves by then
 * (market-prices.ts): a token's open, high, low and close are those of the book that links it to
 * the native token, converted at the other token's rate at the end of the bucket; its volume is
 * what it traded in every book and pool, and its liquidity what the pools hold of it, valued at its
 * own rate then. Candles and volumes leave out buckets without trades or swaps; activity and native
 * prices carry the last price through them.
 */
export class PriceHistory {
  constructor(
    private readonly candles: CandleStore,
    private readonly prices: MarketPrices,
    private readonly clock: Clock,
    private readonly cut: HistoryBuckets,
  ) {}

  /** The token's candles in a window, oldest first. */
  async tokenCandles(token: TokenRecord, window: HistoryWindow): Promise<TokenCandle[]> {
    const { buckets, books, pools } = await this.cut.of(window);
    const mine = books.filter((book) => holds(book, token));
    const result: TokenCandle[] = [];
    for (const bucket of buckets) {
      const traded = mine.filter((book) => bucket.candles.has(book.bookId));
      const rate = bucket.snapshot.rates.get(token.id);
      if (traded.length === 0 || rate === undefined) continue;
      result.push(this.candleOf(token, rate, books, pools, bucket));
    }
    return result;
  }

  /** The candle of the bucket that holds the token's last trade, or undefined when it never traded. */
  async latestCandle(token: TokenRecord, interval: Interval): Promise<TokenCandle | undefined> {
    let last: number | undefined;
    for (const book of this.prices.books(() => null)) {
      if (!holds(book, token)) continue;
      const candle = await this.candles.lastBefore(book.bookId, this.clock.now() + 1);
      if (candle !== undefined && (last === undefined || candle.startMs > last)) last = candle.startMs;
    }
    if (last === undefined) return undefined;
    return (await this.tokenCandles(token, windowOf(last, last, interval))).at(-1);
  }

  /** Each token's price and volume in every bucket of the window up to now, from its first price on. */
  async activity(tokens: readonly TokenRecord[], window: HistoryWindow): Promise<Map<string, TokenActivity[]>> {
    const { buckets, books, pools } = await this.cut.of(window, true);
    const series = new Map<string, TokenActivity[]>(tokens.map((token) => [token.id, []]));
    for (const bucket of buckets) {
      for (const token of tokens) {
        const rate = bucket.snapshot.rates.get(token.id);
        if (rate === undefined) continue;
        series.get(token.id)?.push({
          startMs: bucket.startMs,
          price: tinybarPrice(bucket.snapshot, token),
          volume: floorOf(tokenVolume(token, rate.rate, books, pools, bucket)),
          liquidity: floorOf(tokenLiquidity(token, pools, bucket)),
        });
      }
    }
    return series;
  }

  /** The native coin's USD price at the end of every bucket of the window up to now, from its first one on. */
  async nativeUsd(window: HistoryWindow): Promise<NativeUsdPoint[]> {
    const coin = { num: TINYBAR_PER_COIN, den: 1n };
    return (await this.cut.of(window, true)).buckets.flatMap(({ startMs, snapshot }) =>
      snapshot.usdPerTinybar === null ? [] : [{ startMs, usd: usdValue(snapshot, coin) }],
    );
  }

  /**
   * What the exchange traded in each bucket: every book valued at its quote token's rate (else its
   * base token's), every pool's swaps as pool-value.ts values them; fills and swaps count as trades.
   */
  async volumes(window: HistoryWindow): Promise<VolumePoint[]> {
    const cut = await this.cut.of(window);
    const books = new Map(cut.books.map((book) => [book.bookId, book]));
    const points: VolumePoint[] = [];
    for (const bucket of cut.buckets) {
      let tinybar = ZERO;
      let trades = 0;
      for (const pool of cut.pools) {
        const { volume, swaps } = poolFigures(pool, bucket);
        tinybar = plus(tinybar, volume);
        trades += swaps;
      }
      for (const [bookId, candles] of bucket.candles) {
        const book = books.get(bookId);
        if (book === undefined) continue;
        trades += candles.reduce((count, candle) => count + candle.tradeCount - candle.routedTradeCount, 0);
        const value =
          tinybarValue(bucket.snapshot, book.quoteId, volumeOf(book, candles, book.quoteId)) ??
          tinybarValue(bucket.snapshot, book.baseId, volumeOf(book, candles, book.baseId));
        if (value !== undefined) tinybar = plus(tinybar, value);
      }
      // A bucket in which pools only changed by deposits and withdrawals traded nothing.
      if (trades === 0) continue;
      points.push({ startMs: bucket.startMs, tinybar, usd: usdValue(bucket.snapshot, tinybar), trades });
    }
    return points;
  }

  private candleOf(
    token: TokenRecord,
    rate: TokenRate,
    books: readonly BookPrice[],
    pools: readonly PoolRecord[],
    bucket: Bucket,
  ): TokenCandle {
    const closeRate = rate.rate;
    let open = closeRate;
    let high = closeRate;
    let low = closeRate;
    let close = closeRate;
    let avg = closeRate;
    const link = rate.via === null ? undefined : books.find((book) => book.bookId === rate.via);
    const linkCandles = link === undefined ? undefined : bucket.candles.get(link.bookId);
    if (link !== undefined && linkCandles !== undefined && linkCandles.length > 0) {
      const other = bucket.snapshot.rates.get(link.baseId === token.id ? link.quoteId : link.baseId) as TokenRate;
      const at = (ticks: bigint) => rateThrough(link, ticks, token.id, other.rate);
      const first = linkCandles[0] as Candle;
      const lastCandle = linkCandles.at(-1) as Candle;
      const highTicks = largest(linkCandles.map((candle) => candle.highTicks));
      const lowTicks = smallest(linkCandles.map((candle) => candle.lowTicks));
      // As the quote token, the token is dearest when the book's price is lowest.
      const isBase = link.baseId === token.id;
      open = at(first.openTicks);
      close = at(lastCandle.closeTicks);
      high = at(isBase ? highTicks : lowTicks);
      low = at(isBase ? lowTicks : highTicks);
      const base = tradedOf(link, linkCandles, link.baseId);
      const quote = tradedOf(link, linkCandles, link.quoteId);
      avg = times(other.rate, isBase ? ratio(quote, base) : ratio(base, quote));
    }
    const perToken = (value: Ratio) => times(value, wholeUnit(token));
    const volume = tokenVolume(token, closeRate, books, pools, bucket);
    const liquidity = tokenLiquidity(token, pools, bucket);
    const usd = (value: Ratio) => usdValue(bucket.snapshot, value);
    return {
      tokenId: token.id,
      open: floorOf(perToken(open)),
      high: floorOf(perToken(high)),
      low: floorOf(perToken(low)),
      close: floorOf(perToken(close)),
      avg: perToken(avg),
      openUsd: usd(perToken(open)),
      highUsd: usd(perToken(high)),
      lowUsd: usd(perToken(low)),
      closeUsd: usd(perToken(close)),
      avgUsd: usd(perToken(avg)),
      volume: floorOf(volume),
      liquidity: floorOf(liquidity),
      volumeUsd: usd(volume),
      liquidityUsd: usd(liquidity),
      timestampSeconds: Math.floor(Math.min(bucket.endMs, this.clock.now()) / 1_000),
      startTimestampSeconds: bucket.startMs / 1_000,
    };
  }
}
