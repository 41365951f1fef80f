import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter } from '../../utils/parameters.js';
import { type DataClient, type DataRequestErrorType, type DataResult, mapData } from '../data-client.js';
import { type TokenCandleWire, tokenCandleOf } from '../normalise.js';
import { rangeQuery, type TimeRange } from '../range-query.js';
import type { CandleInterval, TokenCandle } from '../types.js';

export interface GetTokenPricesParameters extends TimeRange {
  readonly tokenId: string;
  readonly interval: CandleInterval;
}

export type GetTokenPricesReturnType = DataResult<TokenCandle[]>;

/** Bad range or interval: ApiError 400; unknown token: 404. */
export type GetTokenPricesErrorType = InvalidParameterError | DataRequestErrorType;

/**
 * Candles of a token in tinybar and USD for every bucket of `interval` that overlaps `from`..`to`
 * and holds trades of it (`GET /tokens/prices/:tokenId`).
 */
export function getTokenPrices(client: DataClient, parameters: GetTokenPricesParameters): Promise<GetTokenPricesReturnType> {
  return client
    .get<TokenCandleWire[]>({
      path: ['tokens', 'prices', ledgerIdParameter(parameters.tokenId, 'tokenId')],
      query: {
        ...rangeQuery(parameters),
        interval: parameters.interval,
      },
    })
    .then((result) => mapData(result, (candles) => candles.map(tokenCandleOf)));
}
