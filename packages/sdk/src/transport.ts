import { ApiError, InvalidResponseError, NetworkError, SdkError } from './errors.js';

/** The part of `fetch` the SDK uses; the global `fetch`, undici's and most polyfills fit. */
export type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

export type QueryValue = string | number | undefined;

/** Where a request goes and what it carries; everything a transport needs, nothing about logins. */
export interface Endpoint {
  /** Normalised base URL: origin plus path prefix, without a trailing slash. */
  readonly baseUrl: string;
  readonly fetch: FetchFn;
  /** Headers of every request, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** How long a request may take, answer included, before it fails with a NetworkError; 0: no limit. */
  readonly timeoutMs: number;
}

export interface RequestOptions {
  /** `GET` unless said otherwise. */
  readonly method?: 'GET' | 'POST' | undefined;
  /** Path segments below the base URL; each one is percent-encoded, so none can add a level or a query. */
  readonly path: readonly string[];
  /** Query parameters; undefined values are left out, the others are percent-encoded. */
  readonly query?: Readonly<Record<string, QueryValue>> | undefined;
  /** JSON body of a POST. */
  readonly body?: unknown;
}

/** What a request can fail with once its parameters are valid. */
export type RequestErrorType = ApiError | NetworkError | InvalidResponseError;

/** A 2xx answer: its parsed JSON body and its headers (the data API's quota lives there). */
export interface Answer<T> {
  readonly body: T;
  readonly headers: Headers;
}

/** The URL of a request: every segment and query value percent-encoded. */
export function buildUrl(endpoint: Pick<Endpoint, 'baseUrl'>, options: Pick<RequestOptions, 'path' | 'query'>): string {
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
  return `${endpoint.baseUrl}/${segments.join('/')}${query === '' ? '' : `?${query}`}`;
}

/**
 * Sends one request and returns the parsed JSON body with the headers. A status outside 2xx throws
 * {@link ApiError}; no response at all throws {@link NetworkError}; a 2xx body that is not JSON
 * throws {@link InvalidResponseError}. `extraHeaders` (a credential) are sent but never reported.
 */
export async function send<T>(
  endpoint: Endpoint,
  options: RequestOptions,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<Answer<T>> {
  const url = buildUrl(endpoint, options);
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json', ...endpoint.headers, ...extraHeaders };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  }

  let response: Response;
  let text: string;
  try {
    const signal = endpoint.timeoutMs > 0 ? AbortSignal.timeout(endpoint.timeoutMs) : undefined;
    response = await endpoint.fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(signal ? { signal } : {}),
    });
    text = await response.text();
  } catch (cause) {
    throw new NetworkError(url, cause);
  }
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (!response.ok) throw apiErrorOf(response, text, requestId, url);
  try {
    return { body: JSON.parse(text) as T, headers: response.headers };
  } catch (cause) {
    throw new InvalidResponseError({ status: response.status, requestId, url, cause });
  }
}

/** Longest piece of a non-JSON error body quoted in an ApiError. */
const BODY_EXCERPT = 200;

/** The ApiError of a non-2xx answer: the server's `{ error, code }` when the body has it. */
export function apiErrorOf(response: Response, text: string, requestId: string | undefined, url: string): ApiError {
  const { status, headers } = response;
  const retryAfterSeconds = retryAfterOf(headers.get('retry-after'));
  const body = parseJson(text);
  if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' && body.error !== '') {
    const code = 'code' in body && typeof body.code === 'string' ? body.code : undefined;
    const index = 'index' in body && Number.isSafeInteger(body.index) ? (body.index as number) : undefined;
    return new ApiError(body.error, { status, code, requestId, url, retryAfterSeconds, index, headers });
  }
  const statusText = response.statusText === '' ? '' : ` ${response.statusText}`;
  const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, BODY_EXCERPT);
  return new ApiError(`The server answered ${status}${statusText} without an error message`, {
    status,
    requestId,
    url,
    retryAfterSeconds,
    headers,
    details: excerpt === '' ? 'empty body' : `body: ${excerpt}`,
  });
}

/** `Retry-After` in whole seconds (RFC 9110 allows a date too, which the API never sends). */
function retryAfterOf(value: string | null): number | undefined {
  return value !== null && /^[0-9]{1,9}$/.test(value) ? Number(value) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
