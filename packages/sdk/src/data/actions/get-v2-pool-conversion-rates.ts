import type { InvalidParameterError } from '../../errors.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import { type PoolCandleParameters, poolCandleRequest } from '../range-query.js';
import type { PoolCandle } from '../types.js';

export interface GetV2PoolConversionRatesParameters extends PoolCandleParameters {}

export type GetV2PoolConversionRatesReturnType = DataResult<PoolCandle[]>;

/** Bad range or interval: ApiError 400; unknown V2 pool: 404. */
export type GetV2PoolConversionRatesErrorType = InvalidParameterError | DataRequestErrorType;

/** Candles of a V2 pool's price (`GET /v2/pools/conversionRates/:poolId`). */
export function getV2PoolConversionRates(
  client: DataClient,
  parameters: GetV2PoolConversionRatesParameters,
): Promise<GetV2PoolConversionRatesReturnType> {
  return client.get<PoolCandle[]>(poolCandleRequest(['v2', 'pools'], parameters));
}
