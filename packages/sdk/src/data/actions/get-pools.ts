import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type PoolWire, poolOf } from '../normalise.js';
import type { Pool } from '../types.js';

export type GetPoolsReturnType = DataResult<Pool[]>;

export type GetPoolsErrorType = DataRequestErrorType;

/** Every constant-product pool with its tokens and reserves (`GET /pools`). */
export function getPools(client: DataClient): Promise<GetPoolsReturnType> {
  return client.get<PoolWire[]>({ path: ['pools'] }).then(mapItems(poolOf));
}
