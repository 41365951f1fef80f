import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { LariData } from '../types.js';

export interface GetV2RewardsParameters {
  /** Ledger id, `0.0.X`. */
  readonly accountId: string;
}

export type GetV2RewardsReturnType = DataResult<LariData[]>;

export type GetV2RewardsErrorType = InvalidParameterError | DataRequestErrorType;

/** An account's V2 liquidity rewards of the current epoch (`GET /v2/rewards/account/:accountId`). */
export function getV2Rewards(client: DataClient, parameters: GetV2RewardsParameters): Promise<GetV2RewardsReturnType> {
  return client.get<LariData[]>({ path: ['v2', 'rewards', 'account', ledgerIdParameter(parameters.accountId, 'accountId')] });
}
