import { bucketStart, type HistoryWindow, INTERVAL_MS, type Interval, windowOf } from '../../domain/data-api/history-window.js';
import {
  type BookPrice,
  floorOf,
  plus,
  type Ratio,
  rateThrough,
  ratio,
  TINYBAR_PER_COIN,
  type TokenRate,
  times,
  ZERO,
} from '../../domain/data-api/native-rates.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import type { Clock } from '../../ports/clock.js';
import type { Candle, CandleStore } from '../../ports/store/candle-ports.js';
import { type MarketPrices, type PriceSnapshot, tinybarPrice, tinybarValue, usdValue, wholeUnit } from './market-prices.js';

/** One bucket of trading: the candles of each book that traded in it, and prices as of its end. */
interface Bucket {
  readonly startMs: number;
  readonly endMs: number;
  readonly candles: ReadonlyMap<number, readonly Candle[]>;
  readonly snapshot: PriceSnapshot;
}

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

/** Raw units of `token` a book traded in a bucket. */
function volumeOf(book: BookPrice, candles: readonly Candle[], token: string): bigint {
  return sum(candles.map((candle) => (token === book.baseId ? candle.baseVolume : candle.quoteVolume)));
}

function holds(book: BookPrice, token: TokenRecord): boolean {
  return book.baseId === token.id || book.quoteId === token.id;
}

/** Tinybar `token` traded in the books of a bucket that hold it, at its rate at the end of the bucket. */
function tokenVolume(token: TokenRecord, rate: Ratio, books: readonly BookPrice[], bucket: Bucket): Ratio {
  const mine = books.filter((book) => holds(book, token));
  const raw = sum(mine.map((book) => volumeOf(book, bucket.candles.get(book.bookId) ?? [], token.id)));
  return times(rate, { num: raw, den: 1n });
}

/**
 * Histories aggregated from the 5-minute candles: token candles priced in tinybar and USD, token
 * activity, the exchange's volume and the native coin's USD price. Each bucket is priced as of its
 * end, with every book's last price by then (native-rates.ts): a token's open, high, low and close
 * are those of the book that links it to the native token, converted at the other token's rate at
 * the end of the bucket; its volume is what it traded in every book, valued at its own rate then.
 * Candles and volumes leave out buckets without trades; activity and native prices carry the last
 * price through them.
 */
export class PriceHistory {
  constructor(
    private readonly candles: CandleStore,
    private readonly prices: MarketPrices,
    private readonly clock: Clock,
  ) {}

  /** The token's candles in a window, oldest first. */
  async tokenCandles(token: TokenRecord, window: HistoryWindow): Promise<TokenCandle[]> {
    const books = this.prices.books(() => null);
    const mine = books.filter((book) => holds(book, token));
    const result: TokenCandle[] = [];
    for (const bucket of await this.buckets(window)) {
      const traded = mine.filter((book) => bucket.candles.has(book.bookId));
      const rate = bucket.snapshot.rates.get(token.id);
      if (traded.length === 0 || rate === undefined) continue;
      result.push(this.candleOf(token, rate, traded, books, bucket));
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
    const books = this.prices.books(() => null);
    const series = new Map<string, TokenActivity[]>(tokens.map((token) => [token.id, []]));
    for (const bucket of await this.buckets(window, true)) {
      for (const token of tokens) {
        const rate = bucket.snapshot.rates.get(token.id);
        if (rate === undefined) continue;
        series.get(token.id)?.push({
          startMs: bucket.startMs,
          price: tinybarPrice(bucket.snapshot, token),
          volume: floorOf(tokenVolume(token, rate.rate, books, bucket)),
        });
      }
    }
    return series;
  }

  /** The native coin's USD price at the end of every bucket of the window up to now, from its first one on. */
  async nativeUsd(window: HistoryWindow): Promise<NativeUsdPoint[]> {
    const coin = { num: TINYBAR_PER_COIN, den: 1n };
    return (await this.buckets(window, true)).flatMap(({ startMs, snapshot }) =>
      snapshot.usdPerTinybar === null ? [] : [{ startMs, usd: usdValue(snapshot, coin) }],
    );
  }

  /** What the exchange traded in each bucket, every book valued at its quote token's rate (else its base token's). */
  async volumes(window: HistoryWindow): Promise<VolumePoint[]> {
    const books = new Map(this.prices.books(() => null).map((book) => [book.bookId, book]));
    const points: VolumePoint[] = [];
    for (const bucket of await this.buckets(window)) {
      let tinybar = ZERO;
      let trades = 0;
      for (const [bookId, candles] of bucket.candles) {
        const book = books.get(bookId);
        if (book === undefined) continue;
        trades += candles.reduce((count, candle) => count + candle.tradeCount, 0);
        const value =
          tinybarValue(bucket.snapshot, book.quoteId, volumeOf(book, candles, book.quoteId)) ??
          tinybarValue(bucket.snapshot, book.baseId, volumeOf(book, candles, book.baseId));
        if (value !== undefined) tinybar = plus(tinybar, value);
      }
      points.push({ startMs: bucket.startMs, tinybar, usd: usdValue(bucket.snapshot, tinybar), trades });
    }
    return points;
  }

  private candleOf(
    token: TokenRecord,
    rate: TokenRate,
    traded: readonly BookPrice[],
    books: readonly BookPrice[],
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
      const at = (ticks: number) => rateThrough(link, ticks, token.id, other.rate);
      const first = linkCandles[0] as Candle;
      const lastCandle = linkCandles.at(-1) as Candle;
      const highTicks = Math.max(...linkCandles.map((candle) => candle.highTicks));
      const lowTicks = Math.min(...linkCandles.map((candle) => candle.lowTicks));
      // As the quote token, the token is dearest when the book's price is lowest.
      const isBase = link.baseId === token.id;
      open = at(first.openTicks);
      close = at(lastCandle.closeTicks);
      high = at(isBase ? highTicks : lowTicks);
      low = at(isBase ? lowTicks : highTicks);
      const base = volumeOf(link, linkCandles, link.baseId);
      const quote = volumeOf(link, linkCandles, link.quoteId);
      avg = times(other.rate, isBase ? ratio(quote, base) : ratio(base, quote));
    }
    const perToken = (value: Ratio) => times(value, wholeUnit(token));
    const volume = tokenVolume(token, closeRate, traded, bucket);
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
      // Pool liquidity has no history yet (the AMM issue records it); no pool holds any today.
      liquidity: 0n,
      volumeUsd: usd(volume),
      liquidityUsd: 0,
      timestampSeconds: Math.floor(Math.min(bucket.endMs, this.clock.now()) / 1_000),
      startTimestampSeconds: bucket.startMs / 1_000,
    };
  }

  /**
   * The buckets of a window, oldest first, each priced as of its end: those in which some book
   * traded, or with `every` each bucket that has begun by now.
   */
  private async buckets(window: HistoryWindow, every = false): Promise<Bucket[]> {
    const width = INTERVAL_MS[window.interval];
    const closes = new Map<number, number>();
    const all: Candle[] = [];
    for (const book of this.prices.books(() => null)) {
      const before = await this.candles.lastBefore(book.bookId, window.startMs);
      if (before !== undefined) closes.set(book.bookId, before.closeTicks);
      all.push(...(await this.candles.range(book.bookId, window.startMs, window.endMs)));
    }
    all.sort((a, b) => a.startMs - b.startMs || a.bookId - b.bookId);
    const lastStart = Math.min(window.endMs, this.clock.now() + 1);
    const buckets: Bucket[] = [];
    let snapshot: PriceSnapshot | undefined;
    let index = 0;
    for (let startMs = window.startMs; every ? startMs < lastStart : index < all.length; startMs += width) {
      if (!every) startMs = bucketStart((all[index] as Candle).startMs, window.interval);
      const candles = new Map<number, Candle[]>();
      for (; index < all.length && (all[index] as Candle).startMs < startMs + width; index++) {
        const candle = all[index] as Candle;
        closes.set(candle.bookId, candle.closeTicks);
        const list = candles.get(candle.bookId);
        if (list === undefined) candles.set(candle.bookId, [candle]);
        else list.push(candle);
      }
      // Prices move only with trades: a bucket without any keeps the last snapshot.
      if (snapshot === undefined || candles.size > 0) {
        snapshot = this.prices.snapshot(this.prices.books((bookId) => closes.get(bookId) ?? null));
      }
      buckets.push({ startMs, endMs: startMs + width, candles, snapshot });
    }
    return buckets;
  }
}
