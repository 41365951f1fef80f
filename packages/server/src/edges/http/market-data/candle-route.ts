import { BookParams, CandlesQuery, CandlesResponse } from '@dex/protocol';
import { CANDLE_WINDOW, type MarketDataService } from '../../../application/market-data/market-data-service.js';
import { parseBookId } from '../../../domain/markets/market.js';
import { errorResponses } from '../schemas.js';
import type { TypedApp } from '../typed-app.js';

const DESCRIPTION = [
  "The book's candles (OHLC in quote per base, as the tape prints prices; base and quote volumes in raw integer units; trade counts), oldest first, folded from its 5-minute candles.",
  'A bucket without trades has no candle: it is left out, not filled with the previous close.',
  '`interval` (FIVEMIN, HOUR, DAY, WEEK) is required; `from` and `to` (unix seconds, from <= to) select every bucket that overlaps them.',
  `\`to\` defaults to now and \`from\` to ${CANDLE_WINDOW.defaultBuckets} buckets back from \`to\`; a window of more than ${CANDLE_WINDOW.maxBuckets} buckets is refused (400 INVALID_TIME_RANGE).`,
  'A missing interval: 400 MISSING_PARAMETER; an unknown one: 400 INVALID_INTERVAL; from/to not whole unix seconds or from after to: 400 INVALID_TIME_RANGE. Served from a short-lived cache.',
].join(' ');

/** `GET /books/:orderbookId/candles`: price candles with volume, open to every caller as the tape is. */
export function candleRoute(app: TypedApp, service: MarketDataService): void {
  app.get(
    '/books/:orderbookId/candles',
    {
      schema: {
        tags: ['market data'],
        summary: 'Price candles',
        description: DESCRIPTION,
        params: BookParams,
        querystring: CandlesQuery,
        response: { 200: CandlesResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => service.candles(parseBookId(request.params.orderbookId), request.query),
  );
}
