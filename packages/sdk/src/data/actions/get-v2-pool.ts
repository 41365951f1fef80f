import type { InvalidParameterError } from '../../errors.js';
import { idParameter } from '../../utils/parameters.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { PoolV2 } from '../types.js';

export interface GetV2PoolParameters {
  readonly poolId: number;
}

export type GetV2PoolReturnType = DataResult<PoolV2>;

/** An unknown V2 pool is an ApiError 404 `POOL_NOT_FOUND`. */
export type GetV2PoolErrorType = InvalidParameterError | DataRequestErrorType;

/** One V2 pool (`GET /v2/pools/:poolId`). */
export function getV2Pool(client: DataClient, parameters: GetV2PoolParameters): Promise<GetV2PoolReturnType> {
  return client.get<PoolV2>({ path: ['v2', 'pools', String(idParameter(parameters.poolId, 'poolId'))] });
}
