import type { InvalidParameterError } from '../../errors.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import { periodRequest } from '../range-query.js';
import type { Period, TokenPvl } from '../types.js';

export interface GetTokensPvlParameters {
  readonly period: Period;
}

export type GetTokensPvlReturnType = DataResult<TokenPvl[]>;

export type GetTokensPvlErrorType = InvalidParameterError | DataRequestErrorType;

/** Every token's volume over the period with its price and pool liquidity now (`GET /tokens/{period}`). */
export function getTokensPvl(client: DataClient, parameters: GetTokensPvlParameters): Promise<GetTokensPvlReturnType> {
  return client.get<TokenPvl[]>(periodRequest('tokens', parameters.period));
}
