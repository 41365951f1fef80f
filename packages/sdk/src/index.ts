export type { MarketGrid } from '@dex/core';
export {
  type AuthenticateErrorType,
  type AuthenticateParameters,
  type AuthenticateReturnType,
  authenticate,
} from './actions/authenticate.js';
export {
  type BuildOrdersErrorType,
  type BuildOrdersParameters,
  type BuildOrdersReturnType,
  buildOrders,
  MAX_ORDERS_PER_REQUEST,
} from './actions/build-orders.js';
export {
  type CancelAfterErrorType,
  type CancelAfterParameters,
  type CancelAfterReturnType,
  cancelAfter,
  MAX_CANCEL_AFTER_SECONDS,
} from './actions/cancel-after.js';
export {
  type CancelAllOrdersErrorType,
  type CancelAllOrdersParameters,
  type CancelAllOrdersReturnType,
  cancelAllOrders,
} from './actions/cancel-all-orders.js';
export {
  type CancelOrdersErrorType,
  type CancelOrdersParameters,
  type CancelOrdersReturnType,
  cancelOrders,
  MAX_CANCELS_PER_REQUEST,
} from './actions/cancel-orders.js';
export {
  type GetBooksErrorType,
  type GetBooksParameters,
  type GetBooksReturnType,
  getBooks,
} from './actions/get-books.js';
export {
  type GetDepthErrorType,
  type GetDepthParameters,
  type GetDepthReturnType,
  getDepth,
} from './actions/get-depth.js';
export {
  type GetExactInputQuoteErrorType,
  type GetExactInputQuoteParameters,
  type GetExactInputQuoteReturnType,
  getExactInputQuote,
} from './actions/get-exact-input-quote.js';
export {
  type GetExactOutputQuoteErrorType,
  type GetExactOutputQuoteParameters,
  type GetExactOutputQuoteReturnType,
  getExactOutputQuote,
} from './actions/get-exact-output-quote.js';
export {
  type GetFeesErrorType,
  type GetFeesParameters,
  type GetFeesReturnType,
  getFees,
} from './actions/get-fees.js';
export {
  type GetHealthErrorType,
  type GetHealthReturnType,
  getHealth,
} from './actions/get-health.js';
export {
  type GetOnboardingStatusErrorType,
  type GetOnboardingStatusParameters,
  type GetOnboardingStatusReturnType,
  getOnboardingStatus,
} from './actions/get-onboarding-status.js';
export {
  type GetOpenOrdersErrorType,
  type GetOpenOrdersParameters,
  type GetOpenOrdersReturnType,
  getOpenOrders,
} from './actions/get-open-orders.js';
export {
  type GetOrderHistoryErrorType,
  type GetOrderHistoryParameters,
  type GetOrderHistoryReturnType,
  getOrderHistory,
} from './actions/get-order-history.js';
export {
  type GetOrdersErrorType,
  type GetOrdersParameters,
  type GetOrdersReturnType,
  getOrderPages,
  getOrders,
  type OrdersPageAt,
} from './actions/get-orders.js';
export {
  type GetSignatureDomainErrorType,
  type GetSignatureDomainReturnType,
  getSignatureDomain,
} from './actions/get-signature-domain.js';
export {
  type GetTradesErrorType,
  type GetTradesParameters,
  type GetTradesReturnType,
  getTrades,
  type TradeSort,
} from './actions/get-trades.js';
export {
  type PlaceOrdersErrorType,
  type PlaceOrdersParameters,
  type PlaceOrdersReturnType,
  placeOrders,
} from './actions/place-orders.js';
export {
  type RequestChallengeErrorType,
  type RequestChallengeParameters,
  type RequestChallengeReturnType,
  requestChallenge,
} from './actions/request-challenge.js';
export {
  type SaveOrdersErrorType,
  type SaveOrdersParameters,
  type SaveOrdersReturnType,
  saveOrders,
} from './actions/save-orders.js';
export {
  DEFAULT_MAX_FEE_PIPS,
  type SignOrdersErrorType,
  type SignOrdersParameters,
  type SignOrdersReturnType,
  signOrders,
} from './actions/sign-orders.js';
export {
  type VerifyChallengeErrorType,
  type VerifyChallengeParameters,
  type VerifyChallengeReturnType,
  verifyChallenge,
} from './actions/verify-challenge.js';
export {
  type BookForOrders,
  type BookGrid,
  bookGrid,
  type LimitOrderSpec,
  limitOrderRequest,
  type MarketOrderSpec,
  marketOrderRequest,
  type OrderRequestOptions,
  type Rounding,
  snapPrice,
  snapSize,
  snapSizeDown,
  toDisplay,
  toRaw,
} from './amounts.js';
export { Session } from './auth/session.js';
export {
  type Access,
  type AccountRequestErrorType,
  type Answer,
  type Client,
  type ClientConfig,
  type ClientRequestOptions,
  type CreateClientErrorType,
  createClient,
  type Endpoint,
  type FetchFn,
  type QueryValue,
  type RequestErrorType,
  type RequestOptions,
  request,
  requestAnswer,
} from './client.js';
export {
  type GetDefaultTokensErrorType,
  type GetDefaultTokensReturnType,
  getDefaultTokens,
} from './data/actions/get-default-tokens.js';
export {
  type GetFarmTotalsErrorType,
  type GetFarmTotalsParameters,
  type GetFarmTotalsReturnType,
  getFarmTotals,
} from './data/actions/get-farm-totals.js';
export {
  type GetFarmsErrorType,
  type GetFarmsReturnType,
  getFarms,
} from './data/actions/get-farms.js';
export {
  type GetHbarHistoricalPricesErrorType,
  type GetHbarHistoricalPricesParameters,
  type GetHbarHistoricalPricesReturnType,
  getHbarHistoricalPrices,
} from './data/actions/get-hbar-historical-prices.js';
export {
  type GetKnownPoolsErrorType,
  type GetKnownPoolsReturnType,
  getKnownPools,
} from './data/actions/get-known-pools.js';
export {
  type GetKnownTokensErrorType,
  type GetKnownTokensReturnType,
  getKnownTokens,
} from './data/actions/get-known-tokens.js';
export {
  type GetLatestPoolConversionRateErrorType,
  type GetLatestPoolConversionRateParameters,
  type GetLatestPoolConversionRateReturnType,
  getLatestPoolConversionRate,
} from './data/actions/get-latest-pool-conversion-rate.js';
export {
  type GetLatestTokenCandlesErrorType,
  type GetLatestTokenCandlesParameters,
  type GetLatestTokenCandlesReturnType,
  getLatestTokenCandles,
} from './data/actions/get-latest-token-candles.js';
export {
  type GetLatestTokenPriceErrorType,
  type GetLatestTokenPriceParameters,
  type GetLatestTokenPriceReturnType,
  getLatestTokenPrice,
} from './data/actions/get-latest-token-price.js';
export {
  type GetPlatformDataErrorType,
  type GetPlatformDataParameters,
  type GetPlatformDataReturnType,
  getPlatformData,
} from './data/actions/get-platform-data.js';
export {
  type GetPoolErrorType,
  type GetPoolParameters,
  type GetPoolReturnType,
  getPool,
} from './data/actions/get-pool.js';
export {
  type GetPoolConversionRatesErrorType,
  type GetPoolConversionRatesParameters,
  type GetPoolConversionRatesReturnType,
  getPoolConversionRates,
} from './data/actions/get-pool-conversion-rates.js';
export {
  type GetPoolVlErrorType,
  type GetPoolVlParameters,
  type GetPoolVlReturnType,
  getPoolVl,
} from './data/actions/get-pool-vl.js';
export {
  type GetPoolsErrorType,
  type GetPoolsReturnType,
  getPools,
} from './data/actions/get-pools.js';
export {
  type GetPoolsFullErrorType,
  type GetPoolsFullReturnType,
  getPoolsFull,
} from './data/actions/get-pools-full.js';
export {
  type GetPoolsVlErrorType,
  type GetPoolsVlParameters,
  type GetPoolsVlReturnType,
  getPoolsVl,
} from './data/actions/get-pools-vl.js';
export {
  type GetStakingStatsErrorType,
  type GetStakingStatsReturnType,
  getStakingStats,
} from './data/actions/get-staking-stats.js';
export {
  type GetStatsErrorType,
  type GetStatsReturnType,
  getStats,
} from './data/actions/get-stats.js';
export {
  type GetTokenErrorType,
  type GetTokenParameters,
  type GetTokenReturnType,
  getToken,
} from './data/actions/get-token.js';
export {
  type GetTokenPoolsErrorType,
  type GetTokenPoolsParameters,
  type GetTokenPoolsReturnType,
  getTokenPools,
} from './data/actions/get-token-pools.js';
export {
  type GetTokenPriceChangesErrorType,
  type GetTokenPriceChangesReturnType,
  getTokenPriceChanges,
} from './data/actions/get-token-price-changes.js';
export {
  type GetTokenPricesErrorType,
  type GetTokenPricesParameters,
  type GetTokenPricesReturnType,
  getTokenPrices,
} from './data/actions/get-token-prices.js';
export {
  type GetTokenPvlErrorType,
  type GetTokenPvlParameters,
  type GetTokenPvlReturnType,
  getTokenPvl,
} from './data/actions/get-token-pvl.js';
export {
  type GetTokensErrorType,
  type GetTokensReturnType,
  getTokens,
} from './data/actions/get-tokens.js';
export {
  type GetTokensFullErrorType,
  type GetTokensFullReturnType,
  getTokensFull,
} from './data/actions/get-tokens-full.js';
export {
  type GetTokensPvlErrorType,
  type GetTokensPvlParameters,
  type GetTokensPvlReturnType,
  getTokensPvl,
} from './data/actions/get-tokens-pvl.js';
export {
  type GetV2PoolErrorType,
  type GetV2PoolParameters,
  type GetV2PoolReturnType,
  getV2Pool,
} from './data/actions/get-v2-pool.js';
export {
  type GetV2PoolConversionRatesErrorType,
  type GetV2PoolConversionRatesParameters,
  type GetV2PoolConversionRatesReturnType,
  getV2PoolConversionRates,
} from './data/actions/get-v2-pool-conversion-rates.js';
export {
  type GetV2PoolsErrorType,
  type GetV2PoolsReturnType,
  getV2Pools,
} from './data/actions/get-v2-pools.js';
export {
  type GetV2PoolsFullErrorType,
  type GetV2PoolsFullReturnType,
  getV2PoolsFull,
} from './data/actions/get-v2-pools-full.js';
export {
  type GetV2PositionsErrorType,
  type GetV2PositionsParameters,
  type GetV2PositionsReturnType,
  getV2Positions,
} from './data/actions/get-v2-positions.js';
export {
  type GetV2RewardsErrorType,
  type GetV2RewardsParameters,
  type GetV2RewardsReturnType,
  getV2Rewards,
} from './data/actions/get-v2-rewards.js';
export {
  createDataClient,
  DataClient,
  type DataClientConfig,
  type DataRequestErrorType,
  type DataResult,
  mapData,
  type Quota,
  readQuota,
} from './data/data-client.js';
export type { PoolCandleRange, TimeRange } from './data/range-query.js';
export type {
  CandleInterval,
  Farm,
  FarmTotal,
  HbarPrice,
  LariData,
  Period,
  PlatformField,
  PlatformInterval,
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
} from './data/types.js';
export { DEFAULT_TOKEN_ICON, PERIODS } from './data/types.js';
export {
  ApiError,
  type ApiErrorOptions,
  InvalidKeyError,
  InvalidParameterError,
  InvalidResponseError,
  NetworkError,
  NotAuthenticatedError,
  OrderMismatchError,
  SdkError,
  type SdkErrorOptions,
  StreamError,
  type StreamFailure,
} from './errors.js';
export {
  type BuiltOrder,
  type CancelResult,
  type FeeRates,
  type FeeSide,
  type HistoryEvent,
  type HistoryEventType,
  type OcoLink,
  type OnboardingStatus,
  type OnboardingStep,
  OPEN_STATUSES,
  ORDER_STATUSES,
  type OrderFill,
  type OrderHistory,
  type OrderListItem,
  type OrderRequest,
  type OrderSide,
  type OrderStatus,
  type OrdersPage,
  type OrderType,
  type SavedOrder,
  type SaveOrdersResult,
  type SignedOrder,
  TERMINAL_STATUSES,
  type WireOrder,
} from './order-types.js';
export { type BuiltOrderExpectations, checkBuiltOrder } from './signing/check-built-order.js';
export { type Ed25519KeySource, type Ed25519SignerOptions, ed25519Signer } from './signing/ed25519-signer.js';
export type { LedgerPrivateKey } from './signing/ledger-key.js';
export { privateKeyBytes } from './signing/private-key.js';
export {
  type OrderTypedData,
  personalMessageDigest,
  type Secp256k1KeySource,
  type Secp256k1SignerOptions,
  secp256k1Signer,
  type TypedDataAccount,
} from './signing/secp256k1-signer.js';
export { type KeyType, orderDigest, type Signer } from './signing/signer.js';
export { DepthBook, type OrderBookView } from './streams/depth-book.js';
export type { DepthDiff, StreamName, UserEvent, UserEventType, WelcomeMessage } from './streams/messages.js';
export type { TrackedOrder } from './streams/order-tracker.js';
export type { RetryOptions, StreamHandle, StreamOptions, StreamStatus } from './streams/reliable-stream.js';
export {
  type DepthChange,
  type DepthStream,
  type WatchDepthErrorType,
  type WatchDepthParameters,
  type WatchDepthReturnType,
  watchDepth,
} from './streams/watch-depth.js';
export {
  type StreamedUserEvent,
  type UserEventStream,
  type WatchUserEventsErrorType,
  type WatchUserEventsParameters,
  type WatchUserEventsReturnType,
  watchUserEvents,
} from './streams/watch-user-events.js';
export type {
  BookStatus,
  BooksPage,
  DepthLevel,
  DepthSnapshot,
  ExactInputQuote,
  ExactOutputQuote,
  Flag,
  Health,
  OrderbookItem,
  RecentTrades,
  SignatureDomain,
  Trade,
  TradeDirection,
} from './types.js';
export type { OrderbookId, RawAmount } from './utils/parameters.js';
