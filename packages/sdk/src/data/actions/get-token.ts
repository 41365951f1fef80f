import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import { type DataClient, type DataRequestErrorType, type DataResult, mapData } from '../data-client.js';
import { type TokenWire, tokenOf } from '../normalise.js';
import type { Token } from '../types.js';

export interface GetTokenParameters {
  /** Ledger id, `0.0.X`. */
  readonly tokenId: string;
}

export type GetTokenReturnType = DataResult<Token>;

/** An unlisted token is an ApiError 404 `TOKEN_NOT_FOUND`. */
export type GetTokenErrorType = InvalidParameterError | DataRequestErrorType;

/** One token with its price and description fields (`GET /tokens/:tokenId`). */
export function getToken(client: DataClient, parameters: GetTokenParameters): Promise<GetTokenReturnType> {
  return client
    .get<TokenWire<Token>>({ path: ['tokens', ledgerIdParameter(parameters.tokenId, 'tokenId')] })
    .then((result) => mapData(result, tokenOf<Token>));
}
