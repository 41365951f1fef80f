import type { InvalidParameterError } from '../../errors.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import { type PoolCandleParameters, poolCandleRequest } from '../range-query.js';
import type { PoolCandle } from '../types.js';

export interface GetPoolConversionRatesParameters extends PoolCandleParameters {}

export type GetPoolConversionRatesReturnType = DataResult<PoolCandle[]>;

/** Bad range or interval: ApiError 400; unknown pool: 404. */
export type GetPoolConversionRatesErrorType = InvalidParameterError | DataRequestErrorType;

/** Candles of a pool's price per bucket of `interval` overlapping `from`..`to` (`GET /pools/conversionRates/:poolId`). */
export function getPoolConversionRates(
  client: DataClient,
  parameters: GetPoolConversionRatesParameters,
): Promise<GetPoolConversionRatesReturnType> {
  return client.get<PoolCandle[]>(poolCandleRequest(['pools'], parameters));
}
