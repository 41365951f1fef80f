import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type PoolWire, poolOf } from '../normalise.js';
import type { Pool } from '../types.js';

export type GetPoolsFullReturnType = DataResult<Pool[]>;

export type GetPoolsFullErrorType = DataRequestErrorType;

/** Every pool with its full token objects (`GET /pools/full`). */
export function getPoolsFull(client: DataClient): Promise<GetPoolsFullReturnType> {
  return client.get<PoolWire[]>({ path: ['pools', 'full'] }).then(mapItems(poolOf));
}
