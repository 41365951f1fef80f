import { ApiError, InvalidParameterError, InvalidResponseError, NetworkError, SdkError } from './errors.js';

/** The part of `fetch` the SDK uses; the global `fetch`, undici's and most polyfills fit. */
export type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

export interface ClientConfig {
  /** Base address of the order book API, e.g. `https://api.example.com`; a path prefix is kept. */
  readonly baseUrl: string | URL;
  /** Defaults to the global `fetch`. */
  readonly fetch?: FetchFn | undefined;
  /** Extra headers sent with every request (an `x-request-id` of your own is echoed back). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** JWT sent as `Authorization: Bearer <token>`; public routes do not need one once open access is live. */
  readonly accessToken?: string | undefined;
}

/** What every action receives: plain data, made once by {@link createClient}. */
export interface Client {
  /** Normalised base URL: origin plus path prefix, without a trailing slash. */
  readonly baseUrl: string;
  readonly fetch: FetchFn;
  /** Headers of every request, names in lower case (without the access token). */
  readonly headers: Readonly<Record<string, string>>;
  readonly accessToken: string | undefined;
}

export type CreateClientErrorType = InvalidParameterError | SdkError;

/** A token is sent verbatim in a header: visible ASCII only, so it cannot split or corrupt the header. */
const TOKEN = /^[\x21-\x7e]+$/;

export function createClient(config: ClientConfig): Client {
  const fetchFn = config.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') {
    throw new SdkError('No fetch function available', { details: 'pass one as `fetch` to createClient' });
  }
  const { accessToken } = config;
  if (accessToken !== undefined && !TOKEN.test(accessToken)) {
    throw new InvalidParameterError('accessToken', 'accessToken must be a non-empty token without spaces or control characters');
  }
  return {
    baseUrl: normaliseBaseUrl(config.baseUrl),
    // Called unbound: browsers refuse a fetch whose `this` is some other object.
    fetch: (url, init) => fetchFn(url, init),
    headers: normaliseHeaders(config.headers ?? {}),
    accessToken,
  };
}

function normaliseBaseUrl(value: string | URL): string {
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

function normaliseHeaders(input: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
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

export type QueryValue = string | number | undefined;

export interface RequestOptions {
  /** Path segments below the base URL; each one is percent-encoded, so none can add a level or a query. */
  readonly path: readonly string[];
  /** Query parameters; undefined values are left out, the others are percent-encoded. */
  readonly query?: Readonly<Record<string, QueryValue>> | undefined;
}

/** What a request can fail with once its parameters are valid. */
export type RequestErrorType = ApiError | NetworkError | InvalidResponseError;

/** The URL of a request: every segment and query value percent-encoded. */
export function buildUrl(client: Pick<Client, 'baseUrl'>, options: RequestOptions): string {
  const segments = options.path.map((segment) => {
    // WHATWG URL parsing resolves "." and ".." (even percent-encoded) no matter what: refuse them.
    if (segment === '' || segment === '.' || segment === '..') {
      throw new SdkError(`"${segment}" cannot be a path segment`);
    }
    return encodeURIComponent(segment);
  });
  const query = Object.entries(options.query ?? {})
    .flatMap(([name, value]) => (value === undefined ? [] : [`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`]))
    .join('&');
  return `${client.baseUrl}/${segments.join('/')}${query === '' ? '' : `?${query}`}`;
}

/**
 * Sends a GET and returns the parsed JSON body. A status outside 2xx throws {@link ApiError}; no
 * response at all throws {@link NetworkError}; a 2xx body that is not JSON throws
 * {@link InvalidResponseError}.
 */
export async function request<T>(client: Client, options: RequestOptions): Promise<T> {
  const url = buildUrl(client, options);
  const headers: Record<string, string> = { accept: 'application/json', ...client.headers };
  if (client.accessToken !== undefined) headers.authorization = `Bearer ${client.accessToken}`;

  let response: Response;
  let text: string;
  try {
    response = await client.fetch(url, { method: 'GET', headers });
    text = await response.text();
  } catch (cause) {
    throw new NetworkError(url, cause);
  }
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (!response.ok) throw apiErrorOf(response, text, requestId, url);
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new InvalidResponseError({ status: response.status, requestId, url, cause });
  }
}

/** Longest piece of a non-JSON error body quoted in an ApiError. */
const BODY_EXCERPT = 200;

function apiErrorOf(response: Response, text: string, requestId: string | undefined, url: string): ApiError {
  const { status } = response;
  const body = parseJson(text);
  if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' && body.error !== '') {
    const code = 'code' in body && typeof body.code === 'string' ? body.code : undefined;
    return new ApiError(body.error, { status, code, requestId, url });
  }
  const statusText = response.statusText === '' ? '' : ` ${response.statusText}`;
  const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, BODY_EXCERPT);
  return new ApiError(`The server answered ${status}${statusText} without an error message`, {
    status,
    requestId,
    url,
    details: excerpt === '' ? 'empty body' : `body: ${excerpt}`,
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
