/**
 * The one catalogue of errors the service answers with. Every error body on the wire is
 * `{ "error": message, "code": CODE }`; docs/errors.md lists the same table and a test keeps the
 * two in step.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: { status: 400, message: 'The request is not valid' },
  INVALID_AMOUNT: { status: 400, message: 'Amount must be an integer string of raw token units' },
  INVALID_SORT: { status: 400, message: 'sort must be asc or desc' },
  NEGATIVE_PAGINATION: { status: 400, message: 'page and limit must not be negative' },
  MISSING_PARAMETER: { status: 400, message: 'A required query parameter is missing' },
  UNKNOWN_ORDERBOOK: { status: 400, message: 'Unknown order book' },
  TOKEN_NOT_IN_BOOK: { status: 400, message: 'The token is not traded in this order book' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON' },
  INVALID_ACCOUNT: { status: 400, message: 'accountId must be a ledger id (0.0.X) or a 0x address' },
  UNKNOWN_ACCOUNT: { status: 400, message: 'The ledger has no account with a single ED25519 or ECDSA_SECP256K1 key for this id' },
  INVALID_ORDER: { status: 400, message: 'The order is not valid' },
  ORDER_OFF_GRID: { status: 400, message: "The order's size is not on the book's size grid" },
  ORDER_TOO_SMALL: { status: 400, message: "The order is below the book's lot size or minimum notional" },
  ORDER_PRICE_OUT_OF_RANGE: { status: 400, message: "The order's price is outside the book's range" },
  ORDER_DEADLINE_TOO_SOON: { status: 400, message: 'The order deadline must be at least 30 seconds from now' },
  ORDER_DEADLINE_TOO_FAR: { status: 400, message: 'The order deadline must be at most 90 days from now' },
  MARKET_CLOSED: { status: 400, message: 'The order book is closed' },
  MARKET_HALTED: { status: 400, message: 'Trading on this order book is halted' },
  WRONG_REACTOR: { status: 400, message: "The order is not addressed to this network's reactor" },
  FEE_CAP_TOO_LOW: { status: 400, message: "The order's fee caps are below the account's fee rates" },
  INVALID_SIGNATURE: { status: 400, message: 'The signature does not verify for this order and account' },
  NONCE_NOT_ISSUED: { status: 400, message: 'The nonce was not issued to this account by /orders/build, or is already used' },
  NONCE_BELOW_FLOOR: { status: 400, message: "The nonce is below the account's nonce floor" },
  NONCES_EXHAUSTED: { status: 400, message: "The account's nonce floor leaves no uint256 nonce to issue" },
  INVALID_OCO_LINK: { status: 400, message: 'OCO links must pair two LIMIT orders of the same book in this batch' },
  INVALID_TIME_RANGE: { status: 400, message: 'from and to must be unix seconds with from <= to' },
  INVALID_INTERVAL: { status: 400, message: 'interval is not one this route offers' },
  INVALID_FIELD: { status: 400, message: 'field must be LIQUIDITY or VOLUME' },
  OPEN_ORDER_LIMIT: { status: 400, message: 'An account may have at most 5000 open orders' },
  INSUFFICIENT_FUNDS: { status: 400, message: "The account's balance and reactor allowance do not cover its open orders" },
  TOO_MANY_BOOKS: { status: 400, message: 'The stream names more order books than one connection may follow' },
  TERMS_VERSION_NOT_CURRENT: { status: 400, message: 'The accepted version is not the current version of this text' },
  TERMS_TEXT_MISMATCH: { status: 400, message: 'The accepted hash is not the hash of the current text of this version' },
  MISSING_AUTHORIZATION: { status: 401, message: 'Missing Authorization header' },
  INVALID_TOKEN: { status: 401, message: 'Invalid or expired access token' },
  LOGIN_FAILED: { status: 401, message: 'No open challenge of this account matches the signature' },
  API_KEY_MISSING: { status: 401, message: 'Missing x-api-key header' },
  API_KEY_INVALID: { status: 401, message: 'Unknown API key' },
  SWAPPER_MISMATCH: { status: 403, message: "The order's swapper is not the authenticated account" },
  ORDER_HASH_TAKEN: { status: 403, message: 'Another account already saved this signed order' },
  API_KEY_REVOKED: { status: 403, message: 'The API key has been revoked' },
  API_KEY_SUSPENDED: { status: 403, message: 'The API key is suspended' },
  API_KEY_WRONG_NETWORK: { status: 403, message: 'The API key belongs to another environment' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  ORDERBOOK_NOT_FOUND: { status: 404, message: 'Order book not found' },
  ORDER_NOT_FOUND: { status: 404, message: 'Order not found' },
  TOKEN_NOT_FOUND: { status: 404, message: 'Token not found' },
  POOL_NOT_FOUND: { status: 404, message: 'Pool not found' },
  NO_PRICE_HISTORY: { status: 404, message: 'There are no trades to make a candle from' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request did not arrive in time' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  RATE_LIMITED: { status: 429, message: 'Too many requests' },
  QUOTA_EXCEEDED: { status: 429, message: 'The monthly request quota of this API key is used up' },
  TOO_MANY_CONNECTIONS: { status: 429, message: 'Too many WebSocket connections; close some or try again later' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },
  INTERNAL: { status: 500, message: 'Internal server error' },
  ACCOUNT_LOOKUP_FAILED: { status: 503, message: 'The account registry did not answer; try again' },
  FUNDS_UNAVAILABLE: { status: 503, message: 'The balances could not be read from the chain; try again' },
  ENGINE_UNAVAILABLE: { status: 503, message: 'The order book engine did not answer in time; try again' },
  TRADING_UNAVAILABLE: { status: 503, message: 'Trading is suspended after a storage failure' },
  STORAGE_UNAVAILABLE: {
    status: 503,
    message: 'The request could not be stored (the store is out of reach or its disk is full); try again',
  },
  USAGE_UNAVAILABLE: { status: 503, message: 'The request could not be counted against the quota; try again' },
  RATE_LIMIT_UNAVAILABLE: { status: 503, message: 'The request could not be checked against the rate limit; try again' },
  SHUTTING_DOWN: { status: 503, message: 'The service is shutting down' },
  NOT_READY: { status: 503, message: 'A dependency of the service does not answer' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  /** Position of the offending item in a batch request. */
  index?: number;
}

/** An error with a catalogue code; `message` overrides the catalogue text with a more precise one. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly index: number | undefined;

  constructor(code: ErrorCode, message?: string, options: { cause?: unknown; index?: number } = {}) {
    super(message ?? ERROR_CATALOGUE[code].message, { cause: options.cause });
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.index = options.index;
  }

  /** The same error about item `index` of a batch: the message names the item. */
  static atItem(index: number, field: string, code: ErrorCode, message?: string): AppError {
    return new AppError(code, `${field}[${index}]: ${message ?? ERROR_CATALOGUE[code].message}`, { index });
  }

  toBody(): ErrorBody {
    return this.index === undefined
      ? { error: this.message, code: this.code }
      : { error: this.message, code: this.code, index: this.index };
  }
}

/**
 * Awaits `work`; a failure that is not already an AppError becomes `code`, with it as the cause: a
 * dependency out of reach answers 503 in the common body, not 500.
 */
export async function failingAs<T>(code: ErrorCode, work: T | Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(code, undefined, { cause: error });
  }
}
