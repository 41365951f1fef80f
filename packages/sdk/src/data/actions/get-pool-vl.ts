import type { InvalidParameterError } from '../../errors.js';
import { idParameter } from '../../utils/parameters.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import { periodRequest } from '../range-query.js';
import type { Period, PoolVl } from '../types.js';

export interface GetPoolVlParameters {
  readonly poolId: number;
  readonly period: Period;
}

export type GetPoolVlReturnType = DataResult<PoolVl[]>;

/** An unknown pool is an ApiError 404 `POOL_NOT_FOUND`. */
export type GetPoolVlErrorType = InvalidParameterError | DataRequestErrorType;

/** A pool's volume and liquidity over the period (`GET /pools/{period}/:poolId`). */
export function getPoolVl(client: DataClient, parameters: GetPoolVlParameters): Promise<GetPoolVlReturnType> {
  return client.get<PoolVl[]>(periodRequest('pools', parameters.period, () => String(idParameter(parameters.poolId, 'poolId'))));
}
