export interface SdkErrorOptions {
  /** Longer explanation, appended to the message in parentheses; never holds a credential. */
  readonly details?: string | undefined;
  readonly cause?: unknown;
}

/**
 * Base class of every error the SDK throws: a short message for people, optional details, and the
 * underlying cause when there is one. `instanceof SdkError` catches them all.
 */
export class SdkError extends Error {
  override readonly name: string = 'SdkError';
  /** The message without the details. */
  readonly shortMessage: string;
  readonly details: string | undefined;

  constructor(shortMessage: string, options: SdkErrorOptions = {}) {
    super(options.details ? `${shortMessage} (${options.details})` : shortMessage, { cause: options.cause });
    this.shortMessage = shortMessage;
    this.details = options.details;
  }
}

export interface ApiErrorOptions {
  readonly status: number;
  /** The server's stable machine code, when the body carried one. */
  readonly code?: string | undefined;
  readonly requestId?: string | undefined;
  readonly url: string;
  readonly details?: string | undefined;
  /** `Retry-After` of a 429 or 503, in seconds. */
  readonly retryAfterSeconds?: number | undefined;
  /** Position of the offending item of a batch request. */
  readonly index?: number | undefined;
  /** The answer's headers (the data API reads its quota from them). */
  readonly headers?: Headers | undefined;
}

/**
 * The server answered with a status outside 2xx. `message` is the server's own `error` text when the
 * body is the usual `{ "error", "code" }`; otherwise it says what came back instead.
 */
export class ApiError extends SdkError {
  override readonly name: string = 'ApiError';
  readonly status: number;
  /** Stable machine code such as `ORDERBOOK_NOT_FOUND`; undefined when the body had none. */
  readonly code: string | undefined;
  /** The `x-request-id` response header: quote it when reporting a problem to the operator. */
  readonly requestId: string | undefined;
  /** The URL that was requested (it never contains a credential). */
  readonly url: string;
  /** How long the server asks to wait before trying again (429, 503), in seconds. */
  readonly retryAfterSeconds: number | undefined;
  /** The item of a batch (build, save) the error is about. */
  readonly index: number | undefined;
  /** The answer's headers; not enumerable, so logging the error does not dump them. */
  declare readonly headers: Headers | undefined;

  constructor(message: string, options: ApiErrorOptions) {
    super(message, { details: options.details });
    this.status = options.status;
    this.code = options.code;
    this.requestId = options.requestId;
    this.url = options.url;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.index = options.index;
    Object.defineProperty(this, 'headers', { value: options.headers, enumerable: false });
  }
}

/** The request never got an HTTP response: refused connection, DNS failure, reset, abort. */
export class NetworkError extends SdkError {
  override readonly name: string = 'NetworkError';
  readonly url: string;

  constructor(url: string, cause: unknown) {
    super(`Could not reach ${new URL(url).origin}`, { details: describeCause(cause), cause });
    this.url = url;
  }
}

/** A 2xx response whose body is not the JSON the route promises. */
export class InvalidResponseError extends SdkError {
  override readonly name: string = 'InvalidResponseError';
  readonly status: number;
  readonly requestId: string | undefined;
  readonly url: string;

  constructor(options: { status: number; requestId: string | undefined; url: string; cause?: unknown }) {
    super(`The server answered ${options.status} with a body that is not JSON`, { cause: options.cause });
    this.status = options.status;
    this.requestId = options.requestId;
    this.url = options.url;
  }
}

/** A value given to the SDK was refused before anything was sent. */
export class InvalidParameterError extends SdkError {
  override readonly name: string = 'InvalidParameterError';
  /** Name of the refused parameter, e.g. `inputAmount`. */
  readonly parameter: string;

  constructor(parameter: string, shortMessage: string, options: SdkErrorOptions = {}) {
    super(shortMessage, options);
    this.parameter = parameter;
  }
}

/** The text of a fetch failure and of its own cause (Node puts ECONNREFUSED and friends there). */
function describeCause(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return cause === undefined ? undefined : String(cause);
  const inner = cause.cause;
  if (inner instanceof Error) {
    const code = (inner as { code?: unknown }).code;
    return `${cause.message}: ${typeof code === 'string' ? code : inner.message}`;
  }
  return cause.message;
}

/** An account route was called, and the client holds no valid access token and no signer to log in with. */
export class NotAuthenticatedError extends SdkError {
  override readonly name: string = 'NotAuthenticatedError';

  constructor() {
    super('This call needs a login', { details: 'create the client with a signer, or call authenticate first' });
  }
}

/**
 * The server built an order that is not the one asked for (another token, amount, recipient, swapper,
 * reactor...): the SDK refuses to sign it. Nothing was signed or sent.
 */
export class OrderMismatchError extends SdkError {
  override readonly name: string = 'OrderMismatchError';
  /** Position of the order in the batch. */
  readonly index: number;
  /** The field that differs, e.g. `output.recipient`. */
  readonly field: string;

  constructor(index: number, field: string, details: string) {
    super(`The built order ${index} is not the order requested: ${field} differs`, { details });
    this.index = index;
    this.field = field;
  }
}

/** A key or signer the SDK cannot sign with. The message never contains key material. */
export class InvalidKeyError extends SdkError {
  override readonly name: string = 'InvalidKeyError';
}

/** Why a stream connection was given up: every one of them makes the stream reconnect and resync. */
export type StreamFailure =
  /** The connection closed (the server restarted, the network dropped it). */
  | 'closed'
  /** A message's `seq` did not follow the previous one: messages were lost. */
  | 'seq-gap'
  /** A depth diff did not continue the book's update ids. */
  | 'update-gap'
  /** Neither a message nor a heartbeat ping arrived for two heartbeat intervals. */
  | 'silent'
  /** A message that is not what the stream protocol promises. */
  | 'malformed';

/** A stream connection ended or could not be trusted any more; the stream reconnects after it. */
export class StreamError extends SdkError {
  override readonly name: string = 'StreamError';
  readonly failure: StreamFailure;
  /** The WebSocket close code, when the connection closed. */
  readonly closeCode: number | undefined;

  constructor(failure: StreamFailure, shortMessage: string, options: SdkErrorOptions & { closeCode?: number | undefined } = {}) {
    super(shortMessage, options);
    this.failure = failure;
    this.closeCode = options.closeCode;
  }
}

/**
 * The onboarding status names another reactor or Permit2 than this client trusts (the signing
 * domain's reactor, the canonical or given Permit2). Approving either would let that contract pull
 * the account's tokens, so nothing was sent.
 */
export class OnboardingMismatchError extends SdkError {
  override readonly name: string = 'OnboardingMismatchError';
  /** The contract that differs. */
  readonly field: 'reactor' | 'permit2';
  /** The address the client expected, and the one the server named (lower-case 0x). */
  readonly expected: string;
  readonly received: string;

  constructor(field: 'reactor' | 'permit2', expected: string, received: string) {
    super(`The onboarding status names another ${field} than this client trusts`, {
      details: `expected ${expected}, the server named ${received}`,
    });
    this.field = field;
    this.expected = expected;
    this.received = received;
  }
}

/** The caller's `sendTransaction` failed on one onboarding step; the steps before it were sent. */
export class OnboardingTransactionError extends SdkError {
  override readonly name: string = 'OnboardingTransactionError';
  /** The step whose transaction failed, e.g. `approveBaseTokenPermit2`. */
  readonly step: string;
  /** The token of that step (lower-case 0x). */
  readonly token: string;
  /** The steps sent before it, in order. */
  readonly sentSteps: readonly string[];

  constructor(step: string, token: string, sentSteps: readonly string[], cause: unknown) {
    super(`Sending the onboarding step ${step} failed`, {
      details: `token ${token}${sentSteps.length > 0 ? `; sent before it: ${sentSteps.join(', ')}` : ''}${
        cause instanceof Error ? `: ${cause.message}` : ''
      }`,
      cause,
    });
    this.step = step;
    this.token = token;
    this.sentSteps = sentSteps;
  }
}

/**
 * A settlement proof the chain contradicts: another chain, a receipt with other events, or a fill
 * the reactor does not hold settled. `field` names what differs.
 */
export class SettlementProofMismatchError extends SdkError {
  override readonly name: string = 'SettlementProofMismatchError';
  readonly field: 'chainId' | 'receipt' | 'event' | 'fill';

  constructor(field: 'chainId' | 'receipt' | 'event' | 'fill', shortMessage: string, details: string) {
    super(shortMessage, { details });
    this.field = field;
  }
}
