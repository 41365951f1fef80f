/** The data API half of the SDK: its client, one action per route, and the shapes it answers. */
export {
  type GetDefaultTokensErrorType,
  type GetDefaultTokensReturnType,
  getDefaultTokens,
} from './actions/get-default-tokens.js';
export {
  type GetFarmTotalsErrorType,
  type GetFarmTotalsParameters,
  type GetFarmTotalsReturnType,
  getFarmTotals,
} from './actions/get-farm-totals.js';
export {
  type GetFarmsErrorType,
  type GetFarmsReturnType,
  getFarms,
} from './actions/get-farms.js';
export {
  type GetHbarHistoricalPricesErrorType,
  type GetHbarHistoricalPricesParameters,
  type GetHbarHistoricalPricesReturnType,
  getHbarHistoricalPrices,
} from './actions/get-hbar-historical-prices.js';
export {
  type GetKnownPoolsErrorType,
  type GetKnownPoolsReturnType,
  getKnownPools,
} from './actions/get-known-pools.js';
export {
  type GetKnownTokensErrorType,
  type GetKnownTokensReturnType,
  getKnownTokens,
} from './actions/get-known-tokens.js';
export {
  type GetLatestPoolConversionRateErrorType,
  type GetLatestPoolConversionRateParameters,
  type GetLatestPoolConversionRateReturnType,
  getLatestPoolConversionRate,
} from './actions/get-latest-pool-conversion-rate.js';
export {
  type GetLatestTokenCandlesErrorType,
  type GetLatestTokenCandlesParameters,
  type GetLatestTokenCandlesReturnType,
  getLatestTokenCandles,
} from './actions/get-latest-token-candles.js';
export {
  type GetLatestTokenPriceErrorType,
  type GetLatestTokenPriceParameters,
  type GetLatestTokenPriceReturnType,
  getLatestTokenPrice,
} from './actions/get-latest-token-price.js';
export {
  type GetPlatformDataErrorType,
  type GetPlatformDataParameters,
  type GetPlatformDataReturnType,
  getPlatformData,
} from './actions/get-platform-data.js';
export {
  type GetPoolErrorType,
  type GetPoolParameters,
  type GetPoolReturnType,
  getPool,
} from './actions/get-pool.js';
export {
  type GetPoolConversionRatesErrorType,
  type GetPoolConversionRatesParameters,
  type GetPoolConversionRatesReturnType,
  getPoolConversionRates,
} from './actions/get-pool-conversion-rates.js';
export {
  type GetPoolVlErrorType,
  type GetPoolVlParameters,
  type GetPoolVlReturnType,
  getPoolVl,
} from './actions/get-pool-vl.js';
export {
  type GetPoolsErrorType,
  type GetPoolsReturnType,
  getPools,
} from './actions/get-pools.js';
export {
  type GetPoolsFullErrorType,
  type GetPoolsFullReturnType,
  getPoolsFull,
} from './actions/get-pools-full.js';
export {
  type GetPoolsVlErrorType,
  type GetPoolsVlParameters,
  type GetPoolsVlReturnType,
  getPoolsVl,
} from './actions/get-pools-vl.js';
export {
  type GetStakingStatsErrorType,
  type GetStakingStatsReturnType,
  getStakingStats,
} from './actions/get-staking-stats.js';
export {
  type GetStatsErrorType,
  type GetStatsReturnType,
  getStats,
} from './actions/get-stats.js';
export {
  type GetTokenErrorType,
  type GetTokenParameters,
  type GetTokenReturnType,
  getToken,
} from './actions/get-token.js';
export {
  type GetTokenPoolsErrorType,
  type GetTokenPoolsParameters,
  type GetTokenPoolsReturnType,
  getTokenPools,
} from './actions/get-token-pools.js';
export {
  type GetTokenPriceChangesErrorType,
  type GetTokenPriceChangesReturnType,
  getTokenPriceChanges,
} from './actions/get-token-price-changes.js';
export {
  type GetTokenPricesErrorType,
  type GetTokenPricesParameters,
  type GetTokenPricesReturnType,
  getTokenPrices,
} from './actions/get-token-prices.js';
export {
  type GetTokenPvlErrorType,
  type GetTokenPvlParameters,
  type GetTokenPvlReturnType,
  getTokenPvl,
} from './actions/get-token-pvl.js';
export {
  type GetTokensErrorType,
  type GetTokensReturnType,
  getTokens,
} from './actions/get-tokens.js';
export {
  type GetTokensFullErrorType,
  type GetTokensFullReturnType,
  getTokensFull,
} from './actions/get-tokens-full.js';
export {
  type GetTokensPvlErrorType,
  type GetTokensPvlParameters,
  type GetTokensPvlReturnType,
  getTokensPvl,
} from './actions/get-tokens-pvl.js';
export {
  type GetV2PoolErrorType,
  type GetV2PoolParameters,
  type GetV2PoolReturnType,
  getV2Pool,
} from './actions/get-v2-pool.js';
export {
  type GetV2PoolConversionRatesErrorType,
  type GetV2PoolConversionRatesParameters,
  type GetV2PoolConversionRatesReturnType,
  getV2PoolConversionRates,
} from './actions/get-v2-pool-conversion-rates.js';
export {
  type GetV2PoolsErrorType,
  type GetV2PoolsReturnType,
  getV2Pools,
} from './actions/get-v2-pools.js';
export {
  type GetV2PoolsFullErrorType,
  type GetV2PoolsFullReturnType,
  getV2PoolsFull,
} from './actions/get-v2-pools-full.js';
export {
  type GetV2PositionsErrorType,
  type GetV2PositionsParameters,
  type GetV2PositionsReturnType,
  getV2Positions,
} from './actions/get-v2-positions.js';
export {
  type GetV2RewardsErrorType,
  type GetV2RewardsParameters,
  type GetV2RewardsReturnType,
  getV2Rewards,
} from './actions/get-v2-rewards.js';
export {
  createDataClient,
  DataClient,
  type DataClientConfig,
  type DataRequestErrorType,
  type DataResult,
  mapData,
  type Quota,
  readQuota,
} from './data-client.js';
export type { PoolCandleRange, TimeRange } from './range-query.js';
export * from './types.js';
