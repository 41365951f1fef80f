import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type PoolWire, poolOf } from '../normalise.js';
import type { Pool } from '../types.js';

export interface GetTokenPoolsParameters {
  readonly tokenId: string;
}

export type GetTokenPoolsReturnType = DataResult<Pool[]>;

/** An unlisted token is an ApiError 404 `TOKEN_NOT_FOUND`. */
export type GetTokenPoolsErrorType = InvalidParameterError | DataRequestErrorType;

/** The pools that hold a token (`GET /tokens/associated-pools/:tokenId`). */
export function getTokenPools(client: DataClient, parameters: GetTokenPoolsParameters): Promise<GetTokenPoolsReturnType> {
  return client
    .get<PoolWire[]>({ path: ['tokens', 'associated-pools', ledgerIdParameter(parameters.tokenId, 'tokenId')] })
    .then(mapItems(poolOf));
}
