/** Stable machine codes of the domain errors; the server maps each one to an HTTP status. */
export type CoreErrorCode =
  | 'INVALID_AMOUNT'
  | 'INVALID_DECIMAL'
  | 'INVALID_DECIMALS'
  | 'INVALID_GRID'
  | 'INVALID_LEDGER_ID'
  | 'INVALID_ORDER'
  | 'INVALID_SIGNATURE'
  | 'OFF_GRID'
  | 'OUT_OF_RANGE';

export interface CoreErrorOptions {
  /** Longer explanation for logs and error bodies; never contains secrets. */
  readonly details?: string;
  readonly cause?: unknown;
}

/**
 * Base error of the domain package: a short message for people, a stable code for programs,
 * optional details and the underlying cause.
 */
export class CoreError extends Error {
  override readonly name: string = 'CoreError';
  readonly code: CoreErrorCode;
  readonly shortMessage: string;
  readonly details: string | undefined;

  constructor(code: CoreErrorCode, shortMessage: string, options: CoreErrorOptions = {}) {
    super(options.details ? `${shortMessage} (${options.details})` : shortMessage, { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = options.details;
  }
}
