import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { Pool } from '../types.js';

export type GetKnownPoolsReturnType = DataResult<Pool[]>;

export type GetKnownPoolsErrorType = DataRequestErrorType;

/** The pools whose two tokens are both known (`GET /pools/known`). */
export function getKnownPools(client: DataClient): Promise<GetKnownPoolsReturnType> {
  return client.get<Pool[]>({ path: ['pools', 'known'] });
}
