import type { InvalidParameterError } from '../../errors.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import { periodRequest } from '../range-query.js';
import type { Period, PoolVl } from '../types.js';

export interface GetPoolsVlParameters {
  readonly period: Period;
}

export type GetPoolsVlReturnType = DataResult<PoolVl[]>;

export type GetPoolsVlErrorType = InvalidParameterError | DataRequestErrorType;

/** Each pool's volume and liquidity over the period (`GET /pools/{period}`). */
export function getPoolsVl(client: DataClient, parameters: GetPoolsVlParameters): Promise<GetPoolsVlReturnType> {
  return client.get<PoolVl[]>(periodRequest('pools', parameters.period));
}
