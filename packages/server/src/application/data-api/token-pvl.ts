import type { TokenPvl } from '@dex/protocol';
import type { Static } from 'typebox';
import { floorOf, ZERO } from '../../domain/data-api/native-rates.js';
import { type Period, periodWindow } from '../../domain/data-api/periods.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import type { Clock } from '../../ports/clock.js';
import { type MarketPrices, tinybarPrice } from './market-prices.js';
import type { PoolDirectory } from './pool-directory.js';
import type { PriceHistory } from './price-history.js';

export type TokenPvlBody = Static<typeof TokenPvl>;

/**
 * Price, volume and liquidity of tokens over a period (periods.ts), all in tinybar. A token's series
 * has a point per bucket from its first price on, the price carried through buckets without trades
 * (volume "0"), with what the pools held of it at the end of the bucket. The summary of every
 * token gives the period's volume with the price and pool liquidity of now.
 */
export class TokenPvlHistory {
  constructor(
    private readonly history: PriceHistory,
    private readonly prices: MarketPrices,
    private readonly pools: PoolDirectory,
    private readonly clock: Clock,
  ) {}

  async series(token: TokenRecord, period: Period): Promise<TokenPvlBody[]> {
    const activity = await this.history.activity([token], periodWindow(period, this.clock.now()));
    return (activity.get(token.id) ?? []).map((point) => ({
      timestampSeconds: point.startMs / 1_000,
      tokenId: token.id,
      price: point.price.toString(),
      liquidity: point.liquidity.toString(),
      volume: point.volume.toString(),
    }));
  }

  async summaries(tokens: readonly TokenRecord[], period: Period): Promise<TokenPvlBody[]> {
    const now = this.clock.now();
    const activity = await this.history.activity(tokens, periodWindow(period, now));
    const prices = await this.prices.now();
    const liquidity = await this.pools.liquidity(prices);
    return tokens.map((token) => ({
      timestampSeconds: Math.floor(now / 1_000),
      tokenId: token.id,
      price: tinybarPrice(prices, token).toString(),
      liquidity: floorOf(liquidity.get(token.id) ?? ZERO).toString(),
      volume: (activity.get(token.id) ?? []).reduce((total, point) => total + point.volume, 0n).toString(),
    }));
  }
}
