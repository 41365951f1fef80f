import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { Stats } from '../types.js';

export type GetStatsReturnType = DataResult<Stats>;

export type GetStatsErrorType = DataRequestErrorType;

/** Fills, volume and value locked since the exchange opened (`GET /stats`). */
export function getStats(client: DataClient): Promise<GetStatsReturnType> {
  return client.get<Stats>({ path: ['stats'] });
}
