import { type Client, type RequestErrorType, request } from '../client.js';
import type { CandleInterval } from '../data/types.js';
import { InvalidParameterError } from '../errors.js';
import type { BookCandles } from '../types.js';
import { type OrderbookId, oneOfParameter, orderbookIdParameter, unixSecondsParameter } from '../utils/parameters.js';

const INTERVALS: readonly CandleInterval[] = ['FIVEMIN', 'HOUR', 'DAY', 'WEEK'];

export interface GetCandlesParameters {
  readonly orderbookId: OrderbookId;
  /** Width of each candle; required. Weeks start on Monday 00:00 UTC. */
  readonly interval: CandleInterval;
  /** Unix seconds; the server's default is 500 candles before `to`. */
  readonly from?: number | undefined;
  /** Unix seconds, not before `from`; the server's default is now. */
  readonly to?: number | undefined;
}

export type GetCandlesReturnType = BookCandles;

/**
 * An unknown book is an ApiError 404 `ORDERBOOK_NOT_FOUND`; a window of more than 1000 candles is
 * an ApiError 400 `INVALID_TIME_RANGE`.
 */
export type GetCandlesErrorType = InvalidParameterError | RequestErrorType;

/** `from` and `to` as query values, checked before anything is sent. */
function rangeOf(from: number | undefined, to: number | undefined): { from: number | undefined; to: number | undefined } {
  const start = from === undefined ? undefined : unixSecondsParameter(from, 'from');
  const end = to === undefined ? undefined : unixSecondsParameter(to, 'to');
  if (start !== undefined && end !== undefined && start > end) {
    throw new InvalidParameterError('from', 'from must not be after to', { details: `from ${start}, to ${end}` });
  }
  return { from: start, to: end };
}

/**
 * A book's price candles with volume (`GET /books/:orderbookId/candles`), oldest first: prices as
 * the tape prints them (quote per base, decimal strings), volumes in raw integer units. A bucket
 * without trades has no candle. The server answers from a short-lived cache.
 *
 * @example
 * const { candles } = await getCandles(client, { orderbookId: 1, interval: 'HOUR' });
 */
export async function getCandles(client: Client, parameters: GetCandlesParameters): Promise<GetCandlesReturnType> {
  const path = ['books', orderbookIdParameter(parameters.orderbookId), 'candles'];
  const interval = oneOfParameter(parameters.interval, INTERVALS, 'interval');
  return request<GetCandlesReturnType>(client, {
    path,
    query: { interval, ...rangeOf(parameters.from, parameters.to) },
  });
}
