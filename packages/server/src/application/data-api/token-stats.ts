import type { TokenStats } from '@dex/protocol';
import type { Static } from 'typebox';
import { ZERO } from '../../domain/data-api/native-rates.js';
import { percentChange } from '../../domain/data-api/percent-change.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import type { Clock } from '../../ports/clock.js';
import { exactUsdPrice, type MarketPrices, type PriceSnapshot, usdValue } from './market-prices.js';
import type { PoolDirectory } from './pool-directory.js';
import { fullView } from './token-catalogue.js';

export type TokenStatsBody = Static<typeof TokenStats>;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;

/**
 * The default-listed tokens with their pool liquidity in USD and the percent change of their USD
 * price over an hour, a day and a week ("then" is the 5-minute candle that holds that moment). A
 * change is 0 when the token had no USD price then or has none now.
 */
export class TokenStatsBoard {
  constructor(
    private readonly tokens: () => readonly TokenRecord[],
    private readonly prices: MarketPrices,
    private readonly pools: PoolDirectory,
    private readonly clock: Clock,
  ) {}

  async defaults(): Promise<TokenStatsBody[]> {
    const now = await this.prices.now();
    const ago = (ms: number) => this.prices.at(this.clock.now() - ms + 1);
    const [hour, day, week] = await Promise.all([ago(HOUR_MS), ago(DAY_MS), ago(WEEK_MS)]);
    const liquidity = await this.pools.liquidity(now);
    const change = (token: TokenRecord, then: PriceSnapshot) =>
      percentChange(exactUsdPrice(now, token), exactUsdPrice(then, token)) ?? 0;
    return this.tokens()
      .filter((token) => token.isDefault)
      .map((token) => ({
        ...fullView(token, now),
        liquidityUsd: usdValue(now, liquidity.get(token.id) ?? ZERO),
        priceChangeHour: change(token, hour),
        priceChangeDay: change(token, day),
        priceChangeWeek: change(token, week),
      }));
  }
}
