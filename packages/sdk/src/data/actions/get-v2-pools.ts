import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { PoolV2Compact } from '../types.js';

export type GetV2PoolsReturnType = DataResult<PoolV2Compact[]>;

export type GetV2PoolsErrorType = DataRequestErrorType;

/** Every concentrated-liquidity (V2) pool (`GET /v2/pools`). */
export function getV2Pools(client: DataClient): Promise<GetV2PoolsReturnType> {
  return client.get<PoolV2Compact[]>({ path: ['v2', 'pools'] });
}
