import type { RequestOptions } from '../transport.js';
import { idParameter, unixSecondsParameter } from '../utils/parameters.js';
import type { CandleInterval } from './types.js';

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

/** A pool candle route (`pools` or `v2/pools`): its pool id, range, width and direction, checked before anything is sent. */
export function poolCandleRequest(
  base: readonly string[],
  parameters: PoolCandleRange & { readonly poolId: number },
): RequestOptions {
  return {
    path: [...base, 'conversionRates', String(idParameter(parameters.poolId, 'poolId'))],
    query: { ...rangeQuery(parameters), interval: parameters.interval, inverted: invertedQuery(parameters.inverted) },
  };
}
