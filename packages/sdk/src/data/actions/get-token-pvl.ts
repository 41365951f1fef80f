import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import { periodRequest } from '../range-query.js';
import type { Period, TokenPvl } from '../types.js';

export interface GetTokenPvlParameters {
  readonly tokenId: string;
  readonly period: Period;
}

export type GetTokenPvlReturnType = DataResult<TokenPvl[]>;

/** An unlisted token is an ApiError 404 `TOKEN_NOT_FOUND`. */
export type GetTokenPvlErrorType = InvalidParameterError | DataRequestErrorType;

/**
 * A token's price and volume per bucket of the period, from its first price on, the price carried
 * through buckets without trades (`GET /tokens/{period}/:tokenId`).
 */
export function getTokenPvl(client: DataClient, parameters: GetTokenPvlParameters): Promise<GetTokenPvlReturnType> {
  return client.get<TokenPvl[]>(
    periodRequest('tokens', parameters.period, () => ledgerIdParameter(parameters.tokenId, 'tokenId')),
  );
}
