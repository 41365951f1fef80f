import type { InvalidParameterError } from '../../errors.js';
import { idParameter } from '../../utils/parameters.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import { invertedQuery } from '../range-query.js';
import type { CandleInterval, PoolCandle } from '../types.js';

export interface GetLatestPoolConversionRateParameters {
  readonly poolId: number;
  /** The candle's width; the server's default is FIVEMIN. */
  readonly interval?: CandleInterval | undefined;
  /** Price token B in token A instead; the server's default is false. */
  readonly inverted?: boolean | undefined;
}

export type GetLatestPoolConversionRateReturnType = DataResult<PoolCandle>;

/** An unknown pool is an ApiError 404 `POOL_NOT_FOUND`; a pool without swaps 404 `NO_PRICE_HISTORY`. */
export type GetLatestPoolConversionRateErrorType = InvalidParameterError | DataRequestErrorType;

/** The candle of a pool's last swap (`GET /pools/conversionRates/latest/:poolId`). */
export function getLatestPoolConversionRate(
  client: DataClient,
  parameters: GetLatestPoolConversionRateParameters,
): Promise<GetLatestPoolConversionRateReturnType> {
  return client.get<PoolCandle>({
    path: ['pools', 'conversionRates', 'latest', String(idParameter(parameters.poolId, 'poolId'))],
    query: { interval: parameters.interval, inverted: invertedQuery(parameters.inverted) },
  });
}
