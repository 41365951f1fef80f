export type { MarketGrid } from '@dex/core';
export { WEI_PER_TINYBAR } from '@dex/core';
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
  type GetCandlesErrorType,
  type GetCandlesParameters,
  type GetCandlesReturnType,
  getCandles,
} from './actions/get-candles.js';
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
  type GetSettlementProofErrorType,
  type GetSettlementProofParameters,
  type GetSettlementProofReturnType,
  getSettlementProof,
} from './actions/get-settlement-proof.js';
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
  type OnboardErrorType,
  type OnboardParameters,
  type OnboardReturnType,
  onboard,
  type SendOnboardingTransaction,
  type SentOnboardingTransaction,
} from './actions/onboard.js';
export {
  type NativeCoinTransaction,
  type OnboardingTransaction,
  type OnboardingTransactionsErrorType,
  type OnboardingTransactionsParameters,
  type OnboardingTransactionsReturnType,
  onboardingTransactions,
  PERMIT2_ADDRESS,
  PERMIT2_MAX_AMOUNT,
  PERMIT2_MAX_EXPIRATION,
  unwrapNativeTransaction,
  wrapNativeTransaction,
} from './actions/onboarding-transactions.js';
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
  type ChainRequester,
  type VerifySettlementProofErrorType,
  type VerifySettlementProofParameters,
  type VerifySettlementProofReturnType,
  verifySettlementProof,
} from './actions/verify-settlement-proof.js';
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
export * from './data/index.js';
export {
  ApiError,
  type ApiErrorOptions,
  InvalidKeyError,
  InvalidParameterError,
  InvalidResponseError,
  NetworkError,
  NotAuthenticatedError,
  OnboardingMismatchError,
  OnboardingTransactionError,
  OrderMismatchError,
  SdkError,
  type SdkErrorOptions,
  SettlementProofMismatchError,
  StreamError,
  type StreamFailure,
} from './errors.js';
export * from './order-types.js';
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
export type * from './types.js';
export type { OrderbookId, RawAmount } from './utils/parameters.js';
