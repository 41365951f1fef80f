import { type DataClient, type DataRequestErrorType, type DataResult, mapData } from '../data-client.js';
import { type TokenCandleWire, tokenCandleOf } from '../normalise.js';
import type { CandleInterval, TokenCandle } from '../types.js';

export interface GetLatestTokenCandlesParameters {
  /** The candles' width; the server's default is FIVEMIN. */
  readonly interval?: CandleInterval | undefined;
}

export type GetLatestTokenCandlesReturnType = DataResult<TokenCandle[]>;

export type GetLatestTokenCandlesErrorType = DataRequestErrorType;

/** For every token that ever traded, the candle holding its last trade (`GET /tokens/ohlcv/latest`). */
export function getLatestTokenCandles(
  client: DataClient,
  parameters: GetLatestTokenCandlesParameters = {},
): Promise<GetLatestTokenCandlesReturnType> {
  return client
    .get<TokenCandleWire[]>({ path: ['tokens', 'ohlcv', 'latest'], query: { interval: parameters.interval } })
    .then((result) => mapData(result, (candles) => candles.map(tokenCandleOf)));
}
