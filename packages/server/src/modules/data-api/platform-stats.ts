import type { Static } from 'typebox';
import type { TokenRecord } from '../../store/ports.js';
import type { Clock } from '../../util/clock.js';
import { TtlCache } from '../../util/ttl-cache.js';
import type { HistoryWindow } from './history-window.js';
import { windowOf } from './history-window.js';
import { type MarketPrices, usdValue } from './market-prices.js';
import { floorOf, plus, ZERO } from './native-rates.js';
import type { PoolDirectory } from './pool-directory.js';
import type { PriceHistory } from './price-history.js';
import type { PlatformPoint, Stats } from './schemas.js';

export type StatsBody = Static<typeof Stats>;
export type PlatformPointBody = Static<typeof PlatformPoint>;
export type PlatformField = 'LIQUIDITY' | 'VOLUME';

/**
 * Exchange-wide figures. Volume is every fill valued in tinybar at the rates of the end of its UTC
 * day (the DAY buckets of the history), so `volumeTotal` is the sum of the daily VOLUME series.
 * Value locked is what the pools hold; pool liquidity has no history yet, so the LIQUIDITY series
 * is empty until the AMM issue records it.
 */
export class PlatformStats {
  private readonly cache: TtlCache<StatsBody>;

  constructor(
    private readonly history: PriceHistory,
    private readonly pools: PoolDirectory,
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

  async series(field: PlatformField, window: HistoryWindow): Promise<PlatformPointBody[]> {
    if (field === 'LIQUIDITY') return [];
    return (await this.history.volumes(window)).map((point) => ({
      timestampSeconds: point.startMs / 1_000,
      valueHbar: floorOf(point.tinybar).toString(),
      valueUsd: point.usd,
    }));
  }
}
