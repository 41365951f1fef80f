import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type PoolWire, poolOf } from '../normalise.js';
import type { Pool } from '../types.js';

export type GetKnownPoolsReturnType = DataResult<Pool[]>;

export type GetKnownPoolsErrorType = DataRequestErrorType;

/** The pools whose two tokens are both known (`GET /pools/known`). */
export function getKnownPools(client: DataClient): Promise<GetKnownPoolsReturnType> {
  return client.get<PoolWire[]>({ path: ['pools', 'known'] }).then(mapItems(poolOf));
}
