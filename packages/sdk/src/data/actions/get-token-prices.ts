import type { InvalidParameterError } from '../../errors.js';
import { ledgerIdParameter, unixSecondsParameter } from '../../utils/parameters.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { CandleInterval, TokenCandle } from '../types.js';

export interface GetTokenPricesParameters {
  readonly tokenId: string;
  /** Unix seconds. */
  readonly from: number;
  /** Unix seconds, not before `from`. */
  readonly to: number;
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
  return client.get<TokenCandle[]>({
    path: ['tokens', 'prices', ledgerIdParameter(parameters.tokenId, 'tokenId')],
    query: {
      from: unixSecondsParameter(parameters.from, 'from'),
      to: unixSecondsParameter(parameters.to, 'to'),
      interval: parameters.interval,
    },
  });
}
