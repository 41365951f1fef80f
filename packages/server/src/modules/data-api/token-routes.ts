import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { parseHistoryQuery, parseInterval } from './history-window.js';
import type { PriceHistory } from './price-history.js';
import { type DataRouteDocs, dataRouteSchema } from './route-docs.js';
import { HistoryQuerySchema, LatestQuery, PriceChange, Token, TokenCandle, TokenCompact, TokenParams } from './schemas.js';
import type { TokenCatalogue } from './token-catalogue.js';

export interface TokenRoutesOptions {
  readonly catalogue: TokenCatalogue;
  readonly history: PriceHistory;
  readonly docs: DataRouteDocs;
}

const CANDLE_INTERVALS = ['FIVEMIN', 'HOUR', 'DAY', 'WEEK'] as const;

/** `/tokens...`: the token registry with prices, price changes and candles from the exchange's trades. */
export async function tokenRoutes(fastify: FastifyInstance, options: TokenRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { catalogue, history, docs } = options;
  const schema = dataRouteSchema(docs, 'tokens');

  app.get(
    '/tokens',
    { schema: schema('Token list', 'Every listed token with its price in tinybar and USD.', Type.Array(TokenCompact)) },
    () => catalogue.compact(),
  );
  app.get(
    '/tokens/full',
    { schema: schema('Token list with details', 'Every listed token with its price and description fields.', Type.Array(Token)) },
    () => catalogue.full(),
  );
  app.get('/tokens/known', { schema: schema('Known tokens', 'The curated list of known tokens.', Type.Array(Token)) }, () =>
    catalogue.full('isKnown'),
  );
  app.get(
    '/tokens/default',
    { schema: schema('Default tokens', 'The curated list of tokens shown by default.', Type.Array(Token)) },
    () => catalogue.full('isDefault'),
  );
  app.get(
    '/tokens/price-change',
    {
      schema: schema(
        '24-hour price changes',
        'Percent change of each token priced now and 24 hours ago (to the 5-minute candle), by token id.',
        PriceChange,
      ),
    },
    () => catalogue.priceChange(),
  );
  app.get(
    '/tokens/:tokenId',
    { schema: { ...schema('One token', 'A token by ledger id.', Token, 404), params: TokenParams } },
    (request) => catalogue.one(request.params.tokenId),
  );
  app.get(
    '/tokens/prices/:tokenId',
    {
      schema: {
        ...schema(
          'Token candles',
          'Candles of the token in tinybar and USD over every bucket of `interval` (FIVEMIN, HOUR, DAY, WEEK) that overlaps `from`..`to` (unix seconds) and holds trades of the token.',
          Type.Array(TokenCandle),
          400,
          404,
        ),
        params: TokenParams,
        querystring: HistoryQuerySchema,
      },
    },
    (request) => {
      const window = parseHistoryQuery(request.query, CANDLE_INTERVALS);
      return history.tokenCandles(catalogue.find(request.params.tokenId), window);
    },
  );
  app.get(
    '/tokens/prices/latest/:tokenId',
    {
      schema: {
        ...schema(
          'Latest token candle',
          'The candle (`interval`, default FIVEMIN) that holds the last trade of the token; 404 when it never traded.',
          TokenCandle,
          400,
          404,
        ),
        params: TokenParams,
        querystring: LatestQuery,
      },
    },
    async (request) => {
      const interval = parseInterval(request.query.interval, CANDLE_INTERVALS, 'FIVEMIN');
      const token = catalogue.find(request.params.tokenId);
      const candle = await history.latestCandle(token, interval);
      if (candle === undefined) throw new AppError('NO_PRICE_HISTORY', `Token ${token.id} has no trades to make a candle from`);
      return candle;
    },
  );
}
