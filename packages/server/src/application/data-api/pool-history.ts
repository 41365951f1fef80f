import { type Ratio, ratio } from '@dex/core';
import type { PoolCandle as PoolCandleSchema, PoolVl } from '@dex/protocol';
import type { Static } from 'typebox';
import { comparePrices, type PoolCandle, type Reserves } from '../../domain/amm/pool-candle.js';
import { decimalText } from '../../domain/data-api/decimal-text.js';
import { type HistoryWindow, type Interval, windowOf } from '../../domain/data-api/history-window.js';
import { floorOf, plus, times, toNumber, ZERO } from '../../domain/data-api/native-rates.js';
import { type Period, periodWindow } from '../../domain/data-api/periods.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import type { Clock } from '../../ports/clock.js';
import type { PoolCandleStore } from '../../ports/store/amm-ports.js';
import type { PoolRecord } from '../../ports/store/pool-ports.js';
import type { Bucket, HistoryBuckets } from './history-buckets.js';
import type { MarketPrices, PriceSnapshot } from './market-prices.js';
import { poolValue } from './pool-directory.js';
import { poolFigures } from './price-history.js';

export type PoolVlBody = Static<typeof PoolVl>;
export type PoolCandleBody = Static<typeof PoolCandleSchema>;

/** US dollars of tinybar as a decimal string ("0" without a USD price). */
function usdText(snapshot: PriceSnapshot, tinybar: Ratio): string {
  return snapshot.usdPerTinybar === null ? '0' : decimalText(times(tinybar, snapshot.usdPerTinybar));
}

/**
 * Pool history from the pools' 5-minute candles: volume and liquidity series (PoolVL) and price
 * candles. Liquidity is what the pool holds at the end of a bucket, volume what its swaps paid in
 * (pool-value.ts), both in tinybar at the rates of the end of the bucket. A candle's prices are
 * token A in token B, in whole tokens (B in A when inverted): open, high, low and close of the
 * pool's price (its reserves' ratio) after each change, `avg` the B the swaps moved over the A.
 */
export class PoolHistory {
  constructor(
    private readonly cut: HistoryBuckets,
    private readonly candles: PoolCandleStore,
    private readonly prices: MarketPrices,
    private readonly tokens: () => readonly TokenRecord[],
    private readonly clock: Clock,
  ) {}

  /** The pool's series over a period: a point per bucket from its first change on. */
  async series(pool: PoolRecord, period: Period): Promise<PoolVlBody[]> {
    const { buckets } = await this.cut.of(periodWindow(period, this.clock.now()), true);
    return buckets.flatMap((bucket) => {
      if (!bucket.poolCloses.has(pool.id)) return [];
      const { liquidity, volume } = poolFigures(pool, bucket);
      const point = { poolId: pool.id, timestampSeconds: bucket.startMs / 1_000 };
      return [{ ...point, liquidity: floorOf(liquidity).toString(), volume: floorOf(volume).toString() }];
    });
  }

  /** Each pool's volume over the period (the sum of its series) and its liquidity now (as /pools values it). */
  async summaries(pools: readonly PoolRecord[], period: Period): Promise<PoolVlBody[]> {
    const now = this.clock.now();
    const { buckets } = await this.cut.of(periodWindow(period, now), true);
    const prices = await this.prices.now();
    return pools.map((pool) => {
      let volume = 0n;
      for (const bucket of buckets) volume += floorOf(poolFigures(pool, bucket).volume);
      const liquidity = poolValue(pool, prices);
      return {
        poolId: pool.id,
        timestampSeconds: Math.floor(now / 1_000),
        liquidity: floorOf(liquidity).toString(),
        volume: volume.toString(),
      };
    });
  }

  /** Every pool's liquidity together at the end of each bucket, from the first pool's first change on. */
  async liquidity(
    pools: readonly PoolRecord[],
    window: HistoryWindow,
  ): Promise<{ startMs: number; tinybar: Ratio; usd: Ratio | null }[]> {
    const { buckets } = await this.cut.of(window, true);
    return buckets.flatMap((bucket) => {
      if (!pools.some((pool) => bucket.poolCloses.has(pool.id))) return [];
      const tinybar = pools.reduce((total, pool) => plus(total, poolFigures(pool, bucket).liquidity), ZERO);
      const { usdPerTinybar } = bucket.snapshot;
      return [{ startMs: bucket.startMs, tinybar, usd: usdPerTinybar === null ? null : times(tinybar, usdPerTinybar) }];
    });
  }

  /** The pool's candles in a window, oldest first: buckets with swaps only. */
  async poolCandles(pool: PoolRecord, window: HistoryWindow, inverted: boolean): Promise<PoolCandleBody[]> {
    const decimals = this.decimalsOf(pool);
    if (decimals === undefined) return [];
    const { buckets } = await this.cut.of(window);
    return buckets.flatMap((bucket) => {
      const candles = bucket.poolCandles.get(pool.id) ?? [];
      if (!candles.some((candle) => candle.swaps > 0)) return [];
      return [this.candleOf(pool, candles, bucket, decimals, inverted)];
    });
  }

  /**
   * The candle of `interval` that holds the pool's last swap. A pool that never swapped gets the
   * candle of `interval` running now, at its current rate (every price its reserves' ratio) with
   * no volume, as the published answer is one candle object; undefined only for a pool whose
   * tokens the registry does not list.
   */
  async latest(pool: PoolRecord, interval: Interval, inverted: boolean): Promise<PoolCandleBody | undefined> {
    const last = await this.candles.lastWithSwaps(pool.id);
    if (last !== undefined)
      return (await this.poolCandles(pool, windowOf(last.startMs, last.startMs, interval), inverted)).at(-1);
    const decimals = this.decimalsOf(pool);
    const now = this.clock.now();
    const [bucket] = (await this.cut.of(windowOf(now, now, interval), true)).buckets;
    if (decimals === undefined || bucket === undefined) return undefined;
    const reserves = bucket.poolCloses.get(pool.id)?.reserves ?? { a: pool.tokenReserveA, b: pool.tokenReserveB };
    const still: PoolCandle = {
      poolId: pool.id,
      startMs: bucket.startMs,
      open: reserves,
      high: reserves,
      low: reserves,
      close: reserves,
      lpSupply: pool.lpTokenReserve,
      aIn: 0n,
      bIn: 0n,
      aOut: 0n,
      bOut: 0n,
      swaps: 0,
    };
    return this.candleOf(pool, [still], bucket, decimals, inverted);
  }

  private decimalsOf(pool: PoolRecord): { a: number; b: number } | undefined {
    const a = this.tokens().find((token) => token.id === pool.tokenAId);
    const b = this.tokens().find((token) => token.id === pool.tokenBId);
    return a === undefined || b === undefined ? undefined : { a: a.decimals, b: b.decimals };
  }

  private candleOf(
    pool: PoolRecord,
    candles: readonly PoolCandle[],
    bucket: Bucket,
    decimals: { a: number; b: number },
    inverted: boolean,
  ): PoolCandleBody {
    const first = candles[0] as PoolCandle;
    const last = candles.at(-1) as PoolCandle;
    const pick = (choose: (candle: PoolCandle) => Reserves, sign: number) =>
      candles.map(choose).reduce((best, reserves) => (comparePrices(reserves, best) === sign ? reserves : best));
    const high = pick((candle) => candle.high, 1);
    const low = pick((candle) => candle.low, -1);
    // Whole B per whole A, or its inverse.
    const unitA = 10n ** BigInt(decimals.a);
    const unitB = 10n ** BigInt(decimals.b);
    const price = (a: bigint, b: bigint): number =>
      a === 0n || b === 0n ? 0 : toNumber(inverted ? ratio(a * unitB, b * unitA) : ratio(b * unitA, a * unitB));
    const movedA = candles.reduce((sum, candle) => sum + candle.aIn + candle.aOut, 0n);
    const movedB = candles.reduce((sum, candle) => sum + candle.bIn + candle.bOut, 0n);
    const { liquidity, volume } = poolFigures(pool, bucket);
    return {
      poolId: pool.id,
      open: price(first.open.a, first.open.b),
      high: inverted ? price(low.a, low.b) : price(high.a, high.b),
      low: inverted ? price(high.a, high.b) : price(low.a, low.b),
      close: price(last.close.a, last.close.b),
      // Without a swap in the bucket nothing traded: the average is the rate the pool held.
      avg: movedA === 0n && movedB === 0n ? price(last.close.a, last.close.b) : price(movedA, movedB),
      volume: floorOf(volume).toString(),
      liquidity: floorOf(liquidity).toString(),
      volumeUsd: usdText(bucket.snapshot, volume),
      liquidityUsd: usdText(bucket.snapshot, liquidity),
      timestampSeconds: Math.floor(Math.min(bucket.endMs, this.clock.now()) / 1_000),
      startTimestampSeconds: bucket.startMs / 1_000,
    };
  }
}
