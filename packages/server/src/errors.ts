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
  MISSING_AUTHORIZATION: { status: 401, message: 'Missing Authorization header' },
  INVALID_TOKEN: { status: 401, message: 'Invalid or expired access token' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  ORDERBOOK_NOT_FOUND: { status: 404, message: 'Order book not found' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  INTERNAL: { status: 500, message: 'Internal server error' },
  SHUTTING_DOWN: { status: 503, message: 'The service is shutting down' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorBody {
  error: string;
  code: ErrorCode;
}

/** An error with a catalogue code; `message` overrides the catalogue text with a more precise one. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message?: string, options: { cause?: unknown } = {}) {
    super(message ?? ERROR_CATALOGUE[code].message, options);
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
  }

  toBody(): ErrorBody {
    return { error: this.message, code: this.code };
  }
}
