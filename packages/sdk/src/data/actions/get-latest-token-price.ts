import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import { type DataClient, type DataRequestErrorType, type DataResult, mapData } from '../data-client.js';
import { latestCandlesOf, noCandlesYet, type TokenCandleWire } from '../normalise.js';
import type { CandleInterval, TokenCandle } from '../types.js';

export interface GetLatestTokenPriceParameters {
  readonly tokenId: string;
  /** The candle's width; the server's default is FIVEMIN. */
  readonly interval?: CandleInterval | undefined;
}

/** The candle in a list of one; `[]` for a token that never traded. */
export type GetLatestTokenPriceReturnType = DataResult<TokenCandle[]>;

/** An unlisted token is an ApiError 404 `TOKEN_NOT_FOUND`. */
export type GetLatestTokenPriceErrorType = InvalidParameterError | DataRequestErrorType;

/**
 * The candle holding the token's last trade (`GET /tokens/prices/latest/:tokenId`). An older
 * server's single candle, or its 404 `NO_PRICE_HISTORY` for a token that never traded, comes out
 * as the list the current server sends.
 */
export function getLatestTokenPrice(
  client: DataClient,
  parameters: GetLatestTokenPriceParameters,
): Promise<GetLatestTokenPriceReturnType> {
  return client
    .get<TokenCandleWire | TokenCandleWire[]>({
      path: ['tokens', 'prices', 'latest', ledgerIdParameter(parameters.tokenId, 'tokenId')],
      query: { interval: parameters.interval },
    })
    .then((result) => mapData(result, latestCandlesOf), noCandlesYet);
}
