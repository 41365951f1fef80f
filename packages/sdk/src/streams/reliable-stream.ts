import type { Client } from '../client.js';
import { ApiError, InvalidKeyError, InvalidParameterError, NotAuthenticatedError, SdkError } from '../errors.js';
import type { OtherMessage, StreamMessage, StreamName } from './messages.js';
import { openStreamSocket, type StreamSocket } from './stream-socket.js';
import { streamAddress } from './stream-url.js';

/**
 * Where a stream stands. `connecting`: the first attempt; `syncing`: connected, fetching the state
 * to start from (snapshot, order listing); `live`: in sync and following; `reconnecting`: a
 * connection failed, the stream waits and tries again; `closed`: stopped for good (see
 * {@link StreamHandle.closed}).
 */
export type StreamStatus = 'connecting' | 'syncing' | 'live' | 'reconnecting' | 'closed';

export interface RetryOptions {
  /** Delay after the first failure; it doubles with each failure in a row, with jitter. Default 250 ms. */
  readonly initialDelayMs?: number | undefined;
  /** Longest delay between attempts, unless the server asks for more with `Retry-After`. Default 30 s. */
  readonly maxDelayMs?: number | undefined;
  /** Failures in a row (with no sync in between) after which the stream gives up. Default: never. */
  readonly maxAttempts?: number | undefined;
}

/** What both streams accept besides their own callbacks. */
export interface StreamOptions {
  /** Every status change. */
  readonly onStatus?: ((status: StreamStatus) => void) | undefined;
  /**
   * Every failure, as it happens: connections lost or refused, gaps, failed snapshots, and errors
   * thrown by your own callbacks. The stream retries after each unless its status becomes `closed`.
   *
   * In a browser, which hides why a handshake failed, a refused handshake is a `NetworkError`, never
   * the `ApiError` it is on Node: it is retried with the backoff like an unreachable server. A refused
   * token is replaced at the next attempt all the same (a client with a signer logs in before every
   * reconnect; one without stops once its token expires), but a refusal no retry cures (400, an
   * unknown book) is retried until `retry.maxAttempts`. Nor can a page see the server's heartbeat
   * pings: there a connection that went silent is given up only when the browser notices.
   */
  readonly onError?: ((error: SdkError) => void) | undefined;
  readonly retry?: RetryOptions | undefined;
}

/** The part of a stream that every kind shares. */
export interface StreamHandle {
  readonly status: StreamStatus;
  /** Resolves when the stream stops for good: undefined after {@link close}, else the error it gave up on. */
  readonly closed: Promise<SdkError | undefined>;
  /** Resolves once the stream is in sync (at once if it is); rejects if it stops first. */
  waitUntilLive(): Promise<void>;
  /** Stops the stream: no reconnect, no callback after the returned promise resolves. */
  close(): Promise<void>;
}

/** The handling of one connection, made by a stream for each connection it opens. */
export interface ConnectionHandler {
  /** The connection is open: fetch what to start from; messages keep arriving (and should be buffered) meanwhile. */
  sync(): Promise<void>;
  /** Every message of the stream; throws a StreamError when the state can no longer be trusted. */
  message(message: StreamMessage | OtherMessage): void;
}

export interface StreamProtocol {
  readonly stream: StreamName;
  /** The `books` query; null for none. */
  readonly books: readonly number[] | null;
  /** Asks the server to cancel the account's open orders on `books` when a connection is lost (user events). */
  readonly cancelOnDisconnect?: boolean | undefined;
  /**
   * Starts handling a new connection. `signal` aborts when the connection ends: work that was
   * under way for it (a snapshot fetch) must then leave the stream's state alone.
   */
  connect(signal: AbortSignal): ConnectionHandler;
}

const DEFAULT_INITIAL_DELAY_MS = 250;
const DEFAULT_MAX_DELAY_MS = 30_000;

/** Errors no retry can cure: a bad request (unknown or closed book, too many books) or no way to log in. */
function isFatal(error: SdkError): boolean {
  if (error instanceof ApiError) {
    return error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status);
  }
  return error instanceof NotAuthenticatedError || error instanceof InvalidParameterError || error instanceof InvalidKeyError;
}

function asSdkError(error: unknown): SdkError {
  return error instanceof SdkError ? error : new SdkError('The stream failed', { cause: error });
}

interface AttemptResult {
  readonly error: SdkError;
  readonly token: string | undefined;
  readonly reachedLive: boolean;
}

/**
 * Keeps one stream connected and in sync: uses a valid token (logging in when there is none) for
 * the first connection and logs in afresh before every reconnect and after a handshake refused
 * with 401, hands each connection to the stream's
 * protocol, and after any failure waits (exponential backoff with jitter, `Retry-After` respected)
 * and starts over. Bad requests and missing credentials stop it instead.
 */
export class ReliableStream implements StreamHandle {
  #status: StreamStatus = 'connecting';
  #stopping = false;
  /** The error the stream gave up on, once it has. */
  #stoppedBy: SdkError | undefined;
  /** Ends the connection under way, if any; resolves once its socket is gone. */
  #endAttempt: ((error: SdkError) => Promise<void>) | undefined;
  #wake: (() => void) | undefined;
  readonly #waiters = new Set<{ resolve: () => void; reject: (error: SdkError) => void }>();
  readonly #done: Promise<void>;
  #finishClosed: (error: SdkError | undefined) => void = () => {};
  readonly closed: Promise<SdkError | undefined>;

  constructor(
    private readonly client: Client,
    private readonly protocol: StreamProtocol,
    private readonly options: StreamOptions,
  ) {
    this.closed = new Promise((resolve) => {
      this.#finishClosed = resolve;
    });
    this.#done = this.#run();
  }

  get status(): StreamStatus {
    return this.#status;
  }

  waitUntilLive(): Promise<void> {
    if (this.#status === 'live') return Promise.resolve();
    if (this.#status === 'closed') return Promise.reject(this.#stoppedBy ?? new SdkError('The stream was closed'));
    return new Promise((resolve, reject) => this.#waiters.add({ resolve, reject }));
  }

  async close(): Promise<void> {
    this.#stopping = true;
    this.#wake?.();
    await this.#endAttempt?.(new SdkError('The stream was closed'));
    await this.#done;
  }

  /** Runs a callback of the caller's; what it throws is reported, never allowed to break the stream. */
  deliver(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.#report(new SdkError('A stream callback threw', { cause: error, details: String(error) }));
    }
  }

  async #run(): Promise<void> {
    let failures = 0;
    let refusedToken: string | undefined;
    let lastError: SdkError | undefined;
    for (let attempt = 1; !this.#stopping; attempt++) {
      const { error, token, reachedLive } = await this.#attempt(attempt > 1, refusedToken);
      if (this.#stopping) break;
      failures = reachedLive ? 1 : failures + 1;
      this.#report(error);
      const { maxAttempts = Number.POSITIVE_INFINITY } = this.options.retry ?? {};
      if (isFatal(error) || failures >= maxAttempts) {
        lastError = error;
        break;
      }
      // A refused token is renewed by a fresh login; any other failure reuses a still-valid one.
      refusedToken = error instanceof ApiError && error.status === 401 ? token : undefined;
      this.#setStatus('reconnecting');
      await this.#sleep(this.#delay(failures, error));
    }
    this.#stoppedBy = lastError;
    this.#setStatus('closed');
    for (const waiter of this.#waiters) waiter.reject(lastError ?? new SdkError('The stream was closed'));
    this.#waiters.clear();
    this.#finishClosed(lastError);
  }

  /**
   * One connection. A reconnect logs in afresh first, as the spec asks (a token is checked only at
   * the handshake, so the one the last connection used may have expired while it was open); a
   * client without a signer can only reuse its token while it is valid.
   */
  async #attempt(reconnect: boolean, refusedToken: string | undefined): Promise<AttemptResult> {
    const { client, protocol } = this;
    const { session } = client;
    let token: string | undefined;
    try {
      const fresh = refusedToken !== undefined || (reconnect && session.signer !== undefined);
      token = fresh ? await session.renew(client, refusedToken) : await session.ensure(client);
    } catch (error) {
      return { error: asSdkError(error), token: undefined, reachedLive: false };
    }
    if (this.#stopping) return { error: new SdkError('The stream was closed'), token, reachedLive: false };

    const aborter = new AbortController();
    const handler = protocol.connect(aborter.signal);
    let reachedLive = false;
    return new Promise<AttemptResult>((resolve) => {
      let socket: StreamSocket | undefined;
      const end = (error: SdkError): Promise<void> => {
        if (aborter.signal.aborted) return Promise.resolve();
        aborter.abort();
        this.#endAttempt = undefined;
        resolve({ error, token, reachedLive });
        return socket?.close() ?? Promise.resolve();
      };
      this.#endAttempt = end;
      const live = (): void => {
        if (aborter.signal.aborted) return;
        reachedLive = true;
        this.#setStatus('live');
      };
      try {
        const address = streamAddress(client, protocol.stream, token, protocol.books, protocol.cancelOnDisconnect);
        socket = openStreamSocket(address, {
          open: () => {
            this.#setStatus('syncing');
            handler.sync().then(live, (error: unknown) => void end(asSdkError(error)));
          },
          message: (message) => handler.message(message),
          end: (error) => void end(error),
        });
      } catch (error) {
        // Nothing was opened (a URL the socket library refuses): a failed attempt like any other.
        void end(asSdkError(error));
      }
    });
  }

  #delay(failures: number, error: SdkError): number {
    const { initialDelayMs = DEFAULT_INITIAL_DELAY_MS, maxDelayMs = DEFAULT_MAX_DELAY_MS } = this.options.retry ?? {};
    const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** (failures - 1));
    // Jitter keeps many clients that lost the same server from coming back at the same instant.
    const delay = ceiling / 2 + (Math.random() * ceiling) / 2;
    const asked = error instanceof ApiError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
    return Math.max(delay, asked);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  #setStatus(status: StreamStatus): void {
    if (status === this.#status) return;
    this.#status = status;
    if (status === 'live') {
      for (const waiter of this.#waiters) waiter.resolve();
      this.#waiters.clear();
    }
    const { onStatus } = this.options;
    if (onStatus !== undefined) this.deliver(() => onStatus(status));
  }

  #report(error: SdkError): void {
    const { onError } = this.options;
    if (onError === undefined) return;
    try {
      onError(error);
    } catch {
      // An error handler that throws has nowhere left to report to.
    }
  }
}
