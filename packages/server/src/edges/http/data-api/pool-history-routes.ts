import { PoolCandle, PoolHistoryQuery, PoolLatestQuery, PoolParams, PoolVl } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PoolDirectory } from '../../../application/data-api/pool-directory.js';
import type { PoolHistory } from '../../../application/data-api/pool-history.js';
import { CANDLE_INTERVALS, parseHistoryQuery, parseInterval } from '../../../domain/data-api/history-window.js';
import { PERIOD_NAMES } from '../../../domain/data-api/periods.js';
import { AppError } from '../../../domain/errors.js';
import { parseFlag } from '../../../domain/query-values.js';
import type { TypedApp } from '../typed-app.js';
import { type DataRouteDocs, dataRouteSchema } from './route-docs.js';

export interface PoolHistoryRoutesOptions {
  readonly pools: PoolDirectory;
  readonly history: PoolHistory;
  readonly docs: DataRouteDocs;
}

const FIGURES =
  'Liquidity and volume are tinybar at the rates of the end of each bucket; history is what the AMM indexer recorded from the chain.';

/**
 * `/pools/{period}` and `/pools/conversionRates/...`: volume, liquidity and price candles of the
 * pools, from their 5-minute candles (pool-history.ts); 404 for an unknown pool.
 */
export async function poolHistoryRoutes(fastify: FastifyInstance, options: PoolHistoryRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  periodRoutes(app, options);
  conversionRateRoutes(app, options);
}

/** `/pools/{period}` and `/pools/{period}/:poolId`: volume and liquidity series. */
function periodRoutes(app: TypedApp, { pools, history, docs }: PoolHistoryRoutesOptions): void {
  const schema = dataRouteSchema(docs, 'pools and farms');
  for (const period of PERIOD_NAMES) {
    app.get(
      `/pools/${period}`,
      {
        schema: schema(
          `Pool volume and liquidity, ${period}`,
          `Each pool's volume over the ${period} period and its liquidity now. ${FIGURES}`,
          Type.Array(PoolVl),
        ),
      },
      async () => history.summaries(await pools.listed(), period),
    );
    app.get(
      `/pools/${period}/:poolId`,
      {
        schema: {
          ...schema(
            `Pool series, ${period}`,
            `The pool's volume and liquidity per bucket of the ${period} period, from its first change on. ${FIGURES}`,
            Type.Array(PoolVl),
            404,
          ),
          params: PoolParams,
        },
      },
      async (request) => history.series(await pools.find(request.params.poolId), period),
    );
  }
}

/** `/pools/conversionRates/...`: the pools' price candles. */
function conversionRateRoutes(app: TypedApp, { pools, history, docs }: PoolHistoryRoutesOptions): void {
  const schema = dataRouteSchema(docs, 'pools and farms');
  app.get(
    '/pools/conversionRates/:poolId',
    {
      schema: {
        ...schema(
          'Pool candles',
          `Candles of the pool's price (token A in token B, whole tokens; \`inverted\`: B in A) per bucket of \`interval\` overlapping \`from\`..\`to\` that holds a swap. ${FIGURES}`,
          Type.Array(PoolCandle),
          400,
          404,
        ),
        params: PoolParams,
        querystring: PoolHistoryQuery,
      },
    },
    async (request) => {
      const window = parseHistoryQuery(request.query, CANDLE_INTERVALS);
      const inverted = parseFlag(request.query.inverted, 'inverted');
      return history.poolCandles(await pools.find(request.params.poolId), window, inverted);
    },
  );
  app.get(
    '/pools/conversionRates/latest/:poolId',
    {
      schema: {
        ...schema(
          'Latest pool candle',
          `The candle (\`interval\`, default FIVEMIN) of the pool's last swap; for a pool without swaps, the candle running now at the pool's current rate with no volume. ${FIGURES}`,
          PoolCandle,
          400,
          404,
        ),
        params: PoolParams,
        querystring: PoolLatestQuery,
      },
    },
    async (request) => {
      const interval = parseInterval(request.query.interval, CANDLE_INTERVALS, 'FIVEMIN');
      const inverted = parseFlag(request.query.inverted, 'inverted');
      const pool = await pools.find(request.params.poolId);
      const candle = await history.latest(pool, interval, inverted);
      // Only a pool whose tokens are not listed has no rate to give.
      if (candle === undefined) throw new AppError('NO_PRICE_HISTORY', `Pool ${pool.id} has no listed tokens to price`);
      return candle;
    },
  );
}
