import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { Pool } from '../types.js';

export type GetPoolsReturnType = DataResult<Pool[]>;

export type GetPoolsErrorType = DataRequestErrorType;

/** Every constant-product pool with its tokens and reserves (`GET /pools`). */
export function getPools(client: DataClient): Promise<GetPoolsReturnType> {
  return client.get<Pool[]>({ path: ['pools'] });
}
