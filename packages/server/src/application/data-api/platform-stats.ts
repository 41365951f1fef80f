import type { NativeUsdPoint, PlatformPoint, StakingStats, Stats } from '@dex/protocol';
import type { Static } from 'typebox';
import type { HistoryWindow } from '../../domain/data-api/history-window.js';
import { windowOf } from '../../domain/data-api/history-window.js';
import { floorOf, plus, toNumber, ZERO } from '../../domain/data-api/native-rates.js';
import { STAKING_APR_SPAN_MS, shareRatio, stakingApr } from '../../domain/data-api/staking-apr.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import { TtlCache } from '../../domain/ttl-cache.js';
import type { Clock } from '../../ports/clock.js';
import type { StakingStore } from '../../ports/store/amm-ports.js';
import { type MarketPrices, usdValue } from './market-prices.js';
import type { PoolDirectory } from './pool-directory.js';
import type { PoolHistory } from './pool-history.js';
import type { PriceHistory } from './price-history.js';

export type StatsBody = Static<typeof Stats>;
export type PlatformPointBody = Static<typeof PlatformPoint>;
export type StakingStatsBody = Static<typeof StakingStats>;
export type NativeUsdPointBody = Static<typeof NativeUsdPoint>;
export type PlatformField = 'LIQUIDITY' | 'VOLUME';

/**
 * Exchange-wide figures. Volume is every fill and pool swap valued in tinybar at the rates of the
 * end of its UTC day (the DAY buckets of the history), so `volumeTotal` is the sum of the daily
 * VOLUME series. Value locked is what the pools hold now; the LIQUIDITY series is what they held
 * at the end of each bucket.
 */
export class PlatformStats {
  private readonly cache: TtlCache<StatsBody>;

  constructor(
    private readonly history: PriceHistory,
    private readonly pools: PoolDirectory,
    private readonly poolHistory: PoolHistory,
    private readonly stakes: StakingStore,
    private readonly prices: MarketPrices,
    private readonly protocolToken: () => TokenRecord | undefined,
    private readonly clock: Clock,
    cacheMs: number,
  ) {
    this.cache = new TtlCache(cacheMs, 1);
  }

  async stats(): Promise<StatsBody> {
    const now = this.clock.now();
    const cached = this.cache.get('stats', now);
    if (cached !== undefined) return cached;
    const days = await this.history.volumes(windowOf(0, now, 'DAY'));
    const volume = days.reduce((total, day) => plus(total, day.tinybar), ZERO);
    const prices = await this.prices.now();
    const tvl = await this.pools.totalValue(prices);
    const body: StatsBody = {
      circulatingSauce: (this.protocolToken()?.circulatingSupply ?? 0n).toString(),
      swapTotal: days.reduce((total, day) => total + day.trades, 0),
      tvl: floorOf(tvl).toString(),
      tvlUsd: usdValue(prices, tvl),
      volumeTotal: floorOf(volume).toString(),
      volumeTotalUsd: days.reduce((total, day) => total + day.usd, 0),
    };
    this.cache.set('stats', body, now);
    return body;
  }

  /**
   * Single-sided staking of the protocol token, as of now: SAUCE held by the staking contract, xSAUCE
   * in existence, SAUCE per xSAUCE, and the annual rate at which a share grew over the last five
   * days (from the first stake, when that is younger; staking-apr.ts).
   */
  async staking(): Promise<StakingStatsBody> {
    const now = this.clock.now();
    const latest = await this.stakes.atOrBefore(now);
    const timestampSeconds = Math.floor(now / 1_000);
    if (latest === undefined) return { avg5day: 0, ratio: 1, sauce: '0', timestampSeconds, xsauce: '0' };
    const then = (await this.stakes.atOrBefore(now - STAKING_APR_SPAN_MS)) ?? (await this.stakes.first()) ?? latest;
    const spanStart = Math.max(then.atMs, now - STAKING_APR_SPAN_MS);
    return {
      avg5day: stakingApr({ ...then, atMs: spanStart }, latest, now),
      ratio: toNumber(shareRatio(latest)),
      sauce: latest.sauce.toString(),
      timestampSeconds,
      xsauce: latest.xsauce.toString(),
    };
  }

  /** The native coin's USD price at the end of each minute of the window up to now, from its first price on. */
  async nativeUsd(window: HistoryWindow): Promise<NativeUsdPointBody[]> {
    return (await this.history.nativeUsd(window)).map((point) => ({
      priceUsd: point.usd,
      timestampSeconds: point.startMs / 1_000,
    }));
  }

  async series(field: PlatformField, window: HistoryWindow): Promise<PlatformPointBody[]> {
    if (field === 'LIQUIDITY') {
      return (await this.poolHistory.liquidity(await this.pools.listed(), window)).map((point) => ({
        timestampSeconds: point.startMs / 1_000,
        valueHbar: floorOf(point.tinybar).toString(),
        valueUsd: point.usd === null ? 0 : toNumber(point.usd),
      }));
    }
    return (await this.history.volumes(window)).map((point) => ({
      timestampSeconds: point.startMs / 1_000,
      valueHbar: floorOf(point.tinybar).toString(),
      valueUsd: point.usd,
    }));
  }
}
