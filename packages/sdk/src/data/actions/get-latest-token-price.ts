import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { CandleInterval, TokenCandle } from '../types.js';

export interface GetLatestTokenPriceParameters {
  readonly tokenId: string;
  /** The candle's width; the server's default is FIVEMIN. */
  readonly interval?: CandleInterval | undefined;
}

export type GetLatestTokenPriceReturnType = DataResult<TokenCandle>;

/** A token that never traded is an ApiError 404 `NO_PRICE_HISTORY`. */
export type GetLatestTokenPriceErrorType = InvalidParameterError | DataRequestErrorType;

/** The candle holding the token's last trade (`GET /tokens/prices/latest/:tokenId`). */
export function getLatestTokenPrice(
  client: DataClient,
  parameters: GetLatestTokenPriceParameters,
): Promise<GetLatestTokenPriceReturnType> {
  return client.get<TokenCandle>({
    path: ['tokens', 'prices', 'latest', ledgerIdParameter(parameters.tokenId, 'tokenId')],
    query: { interval: parameters.interval },
  });
}
