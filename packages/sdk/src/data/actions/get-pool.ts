import type { InvalidParameterError } from '../../errors.js';
import { idParameter } from '../../utils/parameters.js';
import { type DataClient, type DataRequestErrorType, type DataResult, mapData } from '../data-client.js';
import { type PoolWire, poolOf } from '../normalise.js';
import type { Pool } from '../types.js';

export interface GetPoolParameters {
  readonly poolId: number;
}

export type GetPoolReturnType = DataResult<Pool>;

/** An unknown pool is an ApiError 404 `POOL_NOT_FOUND`. */
export type GetPoolErrorType = InvalidParameterError | DataRequestErrorType;

/** One pool with its tokens and reserves (`GET /pools/:poolId`). */
export function getPool(client: DataClient, parameters: GetPoolParameters): Promise<GetPoolReturnType> {
  return client
    .get<PoolWire>({ path: ['pools', String(idParameter(parameters.poolId, 'poolId'))] })
    .then((result) => mapData(result, poolOf));
}
