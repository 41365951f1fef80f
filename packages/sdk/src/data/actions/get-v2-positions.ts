import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { PositionV2 } from '../types.js';

export interface GetV2PositionsParameters {
  /** Ledger id, `0.0.X`. */
  readonly accountId: string;
}

export type GetV2PositionsReturnType = DataResult<PositionV2[]>;

export type GetV2PositionsErrorType = InvalidParameterError | DataRequestErrorType;

/** An account's V2 liquidity positions (`GET /v2/nfts/:accountId/positions`). */
export function getV2Positions(client: DataClient, parameters: GetV2PositionsParameters): Promise<GetV2PositionsReturnType> {
  return client.get<PositionV2[]>({ path: ['v2', 'nfts', ledgerIdParameter(parameters.accountId, 'accountId'), 'positions'] });
}
