import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { StakingStats } from '../types.js';

export type GetStakingStatsReturnType = DataResult<StakingStats>;

export type GetStakingStatsErrorType = DataRequestErrorType;

/** Single-sided staking of the protocol token: amounts, share ratio and 5-day APR (`GET /stats/sss`). */
export function getStakingStats(client: DataClient): Promise<GetStakingStatsReturnType> {
  return client.get<StakingStats>({ path: ['stats', 'sss'] });
}
