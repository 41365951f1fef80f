import { isBearerToken } from './auth/login.js';
import { Session } from './auth/session.js';
import { ApiError, InvalidParameterError, type NotAuthenticatedError, SdkError } from './errors.js';
import type { Signer } from './signing/signer.js';
import { type Answer, type Endpoint, type FetchFn, type RequestErrorType, type RequestOptions, send } from './transport.js';

export {
  type Answer,
  buildUrl,
  type Endpoint,
  type FetchFn,
  type QueryValue,
  type RequestErrorType,
  type RequestOptions,
} from './transport.js';

export interface ClientConfig {
  /** Base address of the order book API, e.g. `https://api.example.com`; a path prefix is kept. */
  readonly baseUrl: string | URL;
  /** Defaults to the global `fetch`. */
  readonly fetch?: FetchFn | undefined;
  /** Extra headers sent with every request (an `x-request-id` of your own is echoed back). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** How long one request may take before it fails with a NetworkError; default 30 s, 0 for no limit. */
  readonly timeoutMs?: number | undefined;
  /** JWT sent as `Authorization: Bearer <token>`; public routes do not need one once open access is live. */
  readonly accessToken?: string | undefined;
  /**
   * The key the client logs in with: account routes log in on first use, and a 401 makes the client
   * log in again once and repeat the request. Signing happens here, never on the server.
   */
  readonly signer?: Signer | undefined;
}

/** What every action receives, made once by {@link createClient}. */
export interface Client extends Endpoint {
  /** The access token and the signer that renews it. */
  readonly session: Session;
}

export type CreateClientErrorType = InvalidParameterError | SdkError;

export function createClient(config: ClientConfig): Client {
  const fetchFn = config.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') {
    throw new SdkError('No fetch function available', { details: 'pass one as `fetch` to createClient' });
  }
  const { accessToken } = config;
  if (accessToken !== undefined && !isBearerToken(accessToken)) {
    throw new InvalidParameterError('accessToken', 'accessToken must be a non-empty token without spaces or control characters');
  }
  return {
    baseUrl: normaliseBaseUrl(config.baseUrl),
    // Called unbound: browsers refuse a fetch whose `this` is some other object.
    fetch: (url, init) => fetchFn(url, init),
    headers: normaliseHeaders(config.headers ?? {}),
    timeoutMs: timeoutOf(config.timeoutMs),
    session: new Session(config.signer, accessToken),
  };
}

/** Default bound of one request: long enough for a batch of 250 orders on a busy server. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** A request timeout in whole milliseconds; 0 means none. */
export function timeoutOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidParameterError('timeoutMs', 'timeoutMs must be a whole number of milliseconds, 0 for no limit', {
      details: `got ${value}`,
    });
  }
  return value;
}

/** Origin plus path prefix without a trailing slash; refuses other schemes, credentials, queries and fragments. */
export function normaliseBaseUrl(value: string | URL): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch (cause) {
    throw new InvalidParameterError('baseUrl', 'baseUrl must be an absolute http or https URL', { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidParameterError('baseUrl', 'baseUrl must be an absolute http or https URL', {
      details: `got the scheme ${url.protocol}`,
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidParameterError('baseUrl', 'baseUrl must not contain credentials');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new InvalidParameterError('baseUrl', 'baseUrl must not have a query or a fragment');
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** Header names in lower case; refuses what HTTP cannot carry. */
export function normaliseHeaders(input: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  let headers: Headers;
  try {
    headers = new Headers(input);
  } catch (cause) {
    throw new InvalidParameterError('headers', 'headers must be valid HTTP header names and values', { cause });
  }
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    result[name] = value;
  });
  return Object.freeze(result);
}

/** Who may call a route: anyone (a held token is sent for fresher answers), or a logged-in account. */
export type Access = 'public' | 'account';

export interface ClientRequestOptions extends RequestOptions {
  /** `public` unless said otherwise. */
  readonly access?: Access | undefined;
}

const bearer = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

/**
 * Sends a request and returns the parsed JSON body. An account route logs in first when the client
 * holds no valid token; any 401 makes a client with a signer log in again once and repeat the
 * request (a 401 means the server did nothing with it). See {@link send} for the errors.
 */
export async function request<T>(client: Client, options: ClientRequestOptions): Promise<T> {
  return (await requestAnswer<T>(client, options)).body;
}

/** {@link request}, with the answer's headers. */
export async function requestAnswer<T>(client: Client, options: ClientRequestOptions): Promise<Answer<T>> {
  const { session } = client;
  const token = options.access === 'account' ? await session.ensure(client) : session.current();
  try {
    return await send<T>(client, options, bearer(token));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || session.signer === undefined) throw error;
    return send<T>(client, options, bearer(await session.renew(client, token)));
  }
}

/** What an account route can fail with besides its own errors. */
export type AccountRequestErrorType = RequestErrorType | NotAuthenticatedError;
