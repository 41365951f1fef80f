import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { PoolV2 } from '../types.js';

export type GetV2PoolsFullReturnType = DataResult<PoolV2[]>;

export type GetV2PoolsFullErrorType = DataRequestErrorType;

/** Every V2 pool with its full token objects (`GET /v2/pools/full`). */
export function getV2PoolsFull(client: DataClient): Promise<GetV2PoolsFullReturnType> {
  return client.get<PoolV2[]>({ path: ['v2', 'pools', 'full'] });
}
