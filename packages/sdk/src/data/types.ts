/**
 * Shapes of the data API, as its published OpenAPI document has them: the protocol package's
 * static types, under the names the SDK has always used. Prices and values in the native coin are
 * tinybar integer strings (1 coin = 100,000,000 tinybar), except candle prices, which are JSON
 * numbers; USD figures are numbers for display; reserves and stakes are raw integer strings.
 */
import type { Farm as WireFarm } from '@dex/protocol';

export type {
  FarmTotal,
  HbarPrice,
  LariData,
  PlatformPoint,
  Pool,
  PoolCandle,
  PoolToken,
  PoolV2,
  PoolV2Compact,
  PoolVl,
  PositionV2,
  StakingStats,
  Stats,
  Token,
  TokenCandle,
  TokenCompact,
  TokenPriceChanges,
  TokenPvl,
  TokenStats,
} from '@dex/protocol';

/** Where a token without an icon of its own points, relative to the data API's base URL. */
export const DEFAULT_TOKEN_ICON = '/images/tokens/default.svg';

/** A farm; the exact raw emissions are this exchange's addition, absent from a server that sends only the published fields. */
export type Farm = Omit<WireFarm, 'sauceEmissionsRaw' | 'hbarEmissionsRaw'> &
  Partial<Pick<WireFarm, 'sauceEmissionsRaw' | 'hbarEmissionsRaw'>>;

export type CandleInterval = 'FIVEMIN' | 'HOUR' | 'DAY' | 'WEEK';

export type PlatformInterval = 'HOUR' | 'DAY' | 'WEEK';
export type PlatformField = 'LIQUIDITY' | 'VOLUME';

/** The span of a price/volume/liquidity series: the last 24 hours or 7 days by the hour, or the last 30 or 365 days by the day. */
export type Period = 'daily' | 'weekly' | 'monthly' | 'yearly';

export const PERIODS: readonly Period[] = ['daily', 'weekly', 'monthly', 'yearly'];
