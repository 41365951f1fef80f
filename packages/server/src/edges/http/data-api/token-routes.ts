import {
  HistoryQuerySchema,
  LatestQuery,
  Pool,
  PriceChange,
  Token,
  TokenCandle,
  TokenCompact,
  TokenParams,
  TokenPvl,
  TokenStats,
} from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PoolDirectory } from '../../../application/data-api/pool-directory.js';
import type { PriceHistory } from '../../../application/data-api/price-history.js';
import type { TokenCatalogue } from '../../../application/data-api/token-catalogue.js';
import type { TokenPvlHistory } from '../../../application/data-api/token-pvl.js';
import type { TokenStatsBoard } from '../../../application/data-api/token-stats.js';
import { CANDLE_INTERVALS, parseHistoryQuery, parseInterval } from '../../../domain/data-api/history-window.js';
import { PERIOD_NAMES } from '../../../domain/data-api/periods.js';
import type { TypedApp } from '../typed-app.js';
import { tokenCandleBody } from './candle-body.js';
import { type DataRouteDocs, dataRouteSchema } from './route-docs.js';

export interface TokenRoutesOptions {
  readonly catalogue: TokenCatalogue;
  readonly stats: TokenStatsBoard;
  readonly history: PriceHistory;
  readonly pvl: TokenPvlHistory;
  readonly pools: PoolDirectory;
  readonly docs: DataRouteDocs;
}

/** `/tokens...`: the token registry with prices, price changes and candles from the exchange's trades. */
export async function tokenRoutes(fastify: FastifyInstance, options: TokenRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Registered in this order so that the OpenAPI document lists the routes as before.
  listRoutes(app, options);
  periodRoutes(app, options);
  oneTokenRoutes(app, options);
  candleRoutes(app, options);
}

/** The token lists and their price changes. */
function listRoutes(app: TypedApp, { catalogue, stats, docs }: TokenRoutesOptions): void {
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
    catalogue.full(true),
  );
  app.get(
    '/tokens/default',
    {
      schema: schema(
        'Default tokens with price changes',
        'The tokens of the curated default list with their pool liquidity (USD) and the percent change of their USD price over an hour, a day and a week.',
        Type.Array(TokenStats),
      ),
    },
    () => stats.defaults(),
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
}

/** `/tokens/{period}` and `/tokens/{period}/:tokenId`: price, volume and liquidity per period. */
function periodRoutes(app: TypedApp, { catalogue, pvl, docs }: TokenRoutesOptions): void {
  const schema = dataRouteSchema(docs, 'tokens');
  // Static segments win over `/tokens/:tokenId`, so no period name is ever taken for a token id.
  for (const period of PERIOD_NAMES) {
    app.get(
      `/tokens/${period}`,
      {
        schema: schema(
          `Token summaries, ${period}`,
          `Every token's tinybar volume over the ${period} period with its price and pool liquidity now, in tinybar.`,
          Type.Array(TokenPvl),
        ),
      },
      () => pvl.summaries(catalogue.all(), period),
    );
    app.get(
      `/tokens/${period}/:tokenId`,
      {
        schema: {
          ...schema(
            `Token series, ${period}`,
            `The token's price and volume in tinybar per bucket of the ${period} period (docs/data-api.md), from its first price on.`,
            Type.Array(TokenPvl),
            404,
          ),
          params: TokenParams,
        },
      },
      (request) => pvl.series(catalogue.find(request.params.tokenId), period),
    );
  }
}

/** One token, and the pools that hold it. */
function oneTokenRoutes(app: TypedApp, { catalogue, pools, docs }: TokenRoutesOptions): void {
  const schema = dataRouteSchema(docs, 'tokens');
  app.get(
    '/tokens/associated-pools/:tokenId',
    {
      schema: {
        ...schema('Pools of a token', 'The pools that hold the token.', Type.Array(Pool), 404),
        params: TokenParams,
      },
    },
    (request) => pools.holding(catalogue.find(request.params.tokenId).id),
  );
  app.get(
    '/tokens/:tokenId',
    { schema: { ...schema('One token', 'A token by ledger id.', Token, 404), params: TokenParams } },
    (request) => catalogue.one(request.params.tokenId),
  );
}

/** The tokens' candles: over a window, the latest of one token, the latest of every token. */
function candleRoutes(app: TypedApp, { catalogue, history, docs }: TokenRoutesOptions): void {
  const schema = dataRouteSchema(docs, 'tokens');
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
    async (request) => {
      const window = parseHistoryQuery(request.query, CANDLE_INTERVALS);
      return (await history.tokenCandles(catalogue.find(request.params.tokenId), window)).map(tokenCandleBody);
    },
  );
  app.get(
    '/tokens/prices/latest/:tokenId',
    {
      schema: {
        ...schema(
          'Latest token candle',
          'The candle (`interval`, default FIVEMIN) that holds the last trade of the token, in a list of one; `[]` when it never traded.',
          Type.Array(TokenCandle),
          400,
          404,
        ),
        params: TokenParams,
        querystring: LatestQuery,
      },
    },
    async (request) => {
      const interval = parseInterval(request.query.interval, CANDLE_INTERVALS, 'FIVEMIN');
      const candle = await history.latestCandle(catalogue.find(request.params.tokenId), interval);
      return candle === undefined ? [] : [tokenCandleBody(candle)];
    },
  );
  app.get(
    '/tokens/ohlcv/latest',
    {
      schema: {
        ...schema(
          'Latest candle of every token',
          'For each token that ever traded, the candle (`interval`, default FIVEMIN) that holds its last trade.',
          Type.Array(TokenCandle),
          400,
        ),
        querystring: LatestQuery,
      },
    },
    async (request) => {
      const interval = parseInterval(request.query.interval, CANDLE_INTERVALS, 'FIVEMIN');
      const candles = await Promise.all(catalogue.all().map((token) => history.latestCandle(token, interval)));
      return candles.flatMap((candle) => (candle === undefined ? [] : [tokenCandleBody(candle)]));
    },
  );
}
