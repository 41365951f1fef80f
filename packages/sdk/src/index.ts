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
export { type GetHealthErrorType, type GetHealthReturnType, getHealth } from './actions/get-health.js';
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
export { type BookGrid, snapSizeDown, toDisplay, toRaw } from './amounts.js';
export {
  type Client,
  type ClientConfig,
  type CreateClientErrorType,
  createClient,
  type FetchFn,
  type QueryValue,
  type RequestErrorType,
  type RequestOptions,
  request,
} from './client.js';
export {
  ApiError,
  type ApiErrorOptions,
  InvalidParameterError,
  InvalidResponseError,
  NetworkError,
  SdkError,
  type SdkErrorOptions,
} from './errors.js';
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
