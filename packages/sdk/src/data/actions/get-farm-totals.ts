import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { FarmTotal } from '../types.js';

export interface GetFarmTotalsParameters {
  /** Ledger id, `0.0.X`. */
  readonly accountId: string;
}

export type GetFarmTotalsReturnType = DataResult<FarmTotal[]>;

export type GetFarmTotalsErrorType = InvalidParameterError | DataRequestErrorType;

/** An account's stake in each farm it is in (`GET /farms/totals/:accountId`). */
export function getFarmTotals(client: DataClient, parameters: GetFarmTotalsParameters): Promise<GetFarmTotalsReturnType> {
  return client.get<FarmTotal[]>({ path: ['farms', 'totals', ledgerIdParameter(parameters.accountId, 'accountId')] });
}
