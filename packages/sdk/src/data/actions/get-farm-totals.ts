import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type FarmTotalWire, farmTotalOf } from '../normalise.js';
import type { FarmTotal } from '../types.js';

export interface GetFarmTotalsParameters {
  /** Ledger id, `0.0.X`. */
  readonly accountId: string;
}

export type GetFarmTotalsReturnType = DataResult<FarmTotal[]>;

export type GetFarmTotalsErrorType = InvalidParameterError | DataRequestErrorType;

/** An account's stake in each farm it is in (`GET /farms/totals/:accountId`). */
export function getFarmTotals(client: DataClient, parameters: GetFarmTotalsParameters): Promise<GetFarmTotalsReturnType> {
  return client
    .get<FarmTotalWire[]>({ path: ['farms', 'totals', ledgerIdParameter(parameters.accountId, 'accountId')] })
    .then(mapItems(farmTotalOf));
}
