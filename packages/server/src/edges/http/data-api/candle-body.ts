import type { TokenCandle as TokenCandleSchema } from '@dex/protocol';
import type { Static } from 'typebox';
import type { TokenCandle } from '../../../application/data-api/price-history.js';
import { toNumber } from '../../../domain/data-api/native-rates.js';

export type TokenCandleBody = Static<typeof TokenCandleSchema>;

/** A candle on the wire: prices as the published JSON numbers, amounts as integer strings. */
export function tokenCandleBody(candle: TokenCandle): TokenCandleBody {
  return {
    ...candle,
    open: Number(candle.open),
    high: Number(candle.high),
    low: Number(candle.low),
    close: Number(candle.close),
    avg: toNumber(candle.avg),
    volume: candle.volume.toString(),
    liquidity: candle.liquidity.toString(),
  };
}
