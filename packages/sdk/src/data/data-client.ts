import { normaliseBaseUrl, normaliseHeaders, timeoutOf } from '../client.js';
import { InvalidParameterError, SdkError } from '../errors.js';
import { type Endpoint, type FetchFn, type RequestErrorType, type RequestOptions, send } from '../transport.js';

export interface DataClientConfig {
  /** Base address of the data API, prefix included, e.g. `https://api.example.com/data`. */
  readonly baseUrl: string | URL;
  /** The operator-issued key (a UUID), sent as `x-api-key`. Keep it in server-side secret storage. */
  readonly apiKey: string;
  readonly fetch?: FetchFn | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** How long one request may take; default 30 s, 0 for no limit. */
  readonly timeoutMs?: number | undefined;
}

/** The monthly quota of a key, as the `x-ratelimit-*` headers of each answer state it. */
export interface Quota {
  /** Requests allowed per month. */
  readonly limit: number;
  /** Requests left this month (0 once over, with or without overage). */
  readonly remaining: number;
  /** Requests made above the limit this month, where overage is arranged. */
  readonly additionalTotal: number;
  /** When the count resets (the end of the calendar month, UTC), unix ms. */
  readonly resetAt: number;
}

/** An answer of the data API: its body and the key's quota after the request (null where keys are off). */
export interface DataResult<T> {
  readonly data: T;
  readonly quota: Quota | null;
}

/** The same answer with its body brought to another shape. */
export function mapData<T, U>(result: DataResult<T>, map: (data: T) => U): DataResult<U> {
  return { data: map(result.data), quota: result.quota };
}

/** The same answer with each item of its list brought to another shape. */
export function mapItems<T, U>(map: (item: T) => U): (result: DataResult<T[]>) => DataResult<U[]> {
  return (result) => mapData(result, (items) => items.map(map));
}

/** 401 unknown key, 403 revoked/suspended/other environment, 429 quota used up (`retryAfterSeconds` set). */
export type DataRequestErrorType = RequestErrorType;

const API_KEY = /^[\x21-\x7e]{1,200}$/;

/** A client of the key-authenticated data API. The key is held privately: logging the client never shows it. */
export class DataClient implements Endpoint {
  readonly baseUrl: string;
  readonly fetch: FetchFn;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly #apiKey: string;

  constructor(config: DataClientConfig) {
    const fetchFn = config.fetch ?? globalThis.fetch;
    if (typeof fetchFn !== 'function') throw new SdkError('No fetch function available', { details: 'pass one as `fetch`' });
    if (typeof config.apiKey !== 'string' || !API_KEY.test(config.apiKey)) {
      throw new InvalidParameterError('apiKey', 'apiKey must be the key the operator issued (a UUID)');
    }
    this.baseUrl = normaliseBaseUrl(config.baseUrl);
    this.fetch = (url, init) => fetchFn(url, init);
    this.headers = normaliseHeaders(config.headers ?? {});
    this.timeoutMs = timeoutOf(config.timeoutMs);
    this.#apiKey = config.apiKey;
  }

  /** Sends a GET with the key and returns the body with the quota it reports. */
  async get<T>(options: Omit<RequestOptions, 'method' | 'body'>): Promise<DataResult<T>> {
    const { body, headers } = await send<T>(this, options, { 'x-api-key': this.#apiKey });
    return { data: body, quota: readQuota(headers) };
  }
}

/**
 * A client of the data API.
 *
 * @example
 * const data = createDataClient({ baseUrl: 'http://127.0.0.1:3000/data', apiKey: process.env.DEX_API_KEY });
 * const { data: tokens, quota } = await getTokens(data);
 */
export function createDataClient(config: DataClientConfig): DataClient {
  return new DataClient(config);
}

const COUNT = /^(0|[1-9][0-9]{0,15})$/;

/** The quota the headers state, or null when they do not carry all four (keys switched off). */
export function readQuota(headers: Headers | undefined): Quota | null {
  if (headers === undefined) return null;
  const values = ['limit', 'remaining', 'additional-total', 'reset'].map((name) => headers.get(`x-ratelimit-${name}`));
  if (!values.every((value): value is string => value !== null && COUNT.test(value))) return null;
  const [limit, remaining, additionalTotal, resetAt] = values.map(Number) as [number, number, number, number];
  return { limit, remaining, additionalTotal, resetAt };
}
