import type { RequestOptions } from '../transport.js';
import { idParameter, oneOfParameter, unixSecondsParameter } from '../utils/parameters.js';
import { type CandleInterval, PERIODS, type Period } from './types.js';

/** The span of a history request, unix seconds. */
export interface TimeRange {
  readonly from: number;
  /** Not before `from`. */
  readonly to: number;
}

/** `from` and `to` as query parameters, checked before anything is sent. */
export function rangeQuery(range: TimeRange): { from: number; to: number } {
  return { from: unixSecondsParameter(range.from, 'from'), to: unixSecondsParameter(range.to, 'to') };
}

/** A pool candle request: a range, the candles' width, and whether to price token B in token A. */
export interface PoolCandleRange extends TimeRange {
  readonly interval: CandleInterval;
  /** Price token B in token A instead; the server's default is false. */
  readonly inverted?: boolean | undefined;
}

/** `inverted` as a query value, left out when not given. */
export function invertedQuery(inverted: boolean | undefined): string | undefined {
  return inverted === undefined ? undefined : String(inverted);
}

/** A pool candle request of one pool (`pools` or `v2/pools`). */
export interface PoolCandleParameters extends PoolCandleRange {
  readonly poolId: number;
}

/** A pool candle route (`pools` or `v2/pools`): its pool id, range, width and direction, checked before anything is sent. */
export function poolCandleRequest(base: readonly string[], parameters: PoolCandleParameters): RequestOptions {
  return {
    path: [...base, 'conversionRates', String(idParameter(parameters.poolId, 'poolId'))],
    query: { ...rangeQuery(parameters), interval: parameters.interval, inverted: invertedQuery(parameters.inverted) },
  };
}

/**
 * A period route (`pools` or `tokens`): `/{base}/{period}`, or `/{base}/{period}/{id}` for one
 * pool or token. `id` checks and gives its segment; it runs after the period's check, so a call
 * wrong in both reports the period.
 */
export function periodRequest(base: string, period: Period, id?: () => string): RequestOptions {
  const segment = oneOfParameter(period, PERIODS, 'period');
  return { path: id === undefined ? [base, segment] : [base, segment, id()] };
}
