import { PoolCandle, PoolHistoryQuery, PoolLatestQuery, PoolParams, PoolVl } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PoolDirectory } from '../../../application/data-api/pool-directory.js';
import { CANDLE_INTERVALS, parseHistoryQuery, parseInterval } from '../../../domain/data-api/history-window.js';
import { PERIOD_NAMES } from '../../../domain/data-api/periods.js';
import { AppError } from '../../../domain/errors.js';
import { parseFlag } from '../../../domain/query-values.js';
import type { TypedApp } from '../typed-app.js';
import { type DataRouteDocs, dataRouteSchema } from './route-docs.js';

export interface PoolHistoryRoutesOptions {
  readonly pools: PoolDirectory;
  readonly docs: DataRouteDocs;
}

const NO_HISTORY = 'Pool history (reserves and swaps over time) is recorded from the AMM on; until then it is empty.';

/**
 * `/pools/{period}` and `/pools/conversionRates/...`: volume, liquidity and price candles of the
 * pools. Nothing records a pool's reserves or swaps over time yet (the AMM issue will), so these
 * answer the published shapes with what exists: empty lists, and 404 for an unknown pool.
 */
export async function poolHistoryRoutes(fastify: FastifyInstance, options: PoolHistoryRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  periodRoutes(app, options);
  conversionRateRoutes(app, options);
}

/** `/pools/{period}` and `/pools/{period}/:poolId`: volume and liquidity series. */
function periodRoutes(app: TypedApp, { pools, docs }: PoolHistoryRoutesOptions): void {
  const schema = dataRouteSchema(docs, 'pools and farms');
  for (const period of PERIOD_NAMES) {
    app.get(
      `/pools/${period}`,
      {
        schema: schema(
          `Pool volume and liquidity, ${period}`,
          `Each pool's ${period} volume and liquidity. ${NO_HISTORY}`,
          Type.Array(PoolVl),
        ),
      },
      () => [],
    );
    app.get(
      `/pools/${period}/:poolId`,
      {
        schema: {
          ...schema(
            `Pool series, ${period}`,
            `The pool's volume and liquidity over the ${period} period. ${NO_HISTORY}`,
            Type.Array(PoolVl),
            404,
          ),
          params: PoolParams,
        },
      },
      async (request) => {
        await pools.find(request.params.poolId);
        return [];
      },
    );
  }
}

/** `/pools/conversionRates/...`: the pools' price candles. */
function conversionRateRoutes(app: TypedApp, { pools, docs }: PoolHistoryRoutesOptions): void {
  const schema = dataRouteSchema(docs, 'pools and farms');
  app.get(
    '/pools/conversionRates/:poolId',
    {
      schema: {
        ...schema(
          'Pool candles',
          `Candles of the pool's price (token A in token B; \`inverted\`: B in A) per bucket of \`interval\` overlapping \`from\`..\`to\`. ${NO_HISTORY}`,
          Type.Array(PoolCandle),
          400,
          404,
        ),
        params: PoolParams,
        querystring: PoolHistoryQuery,
      },
    },
    async (request) => {
      parseHistoryQuery(request.query, CANDLE_INTERVALS);
      parseFlag(request.query.inverted, 'inverted');
      await pools.find(request.params.poolId);
      return [];
    },
  );
  app.get(
    '/pools/conversionRates/latest/:poolId',
    {
      schema: {
        ...schema(
          'Latest pool candle',
          `The candle (\`interval\`, default FIVEMIN) of the pool's last swap; 404 NO_PRICE_HISTORY for a pool without swaps. ${NO_HISTORY}`,
          PoolCandle,
          400,
          404,
        ),
        params: PoolParams,
        querystring: PoolLatestQuery,
      },
    },
    async (request) => {
      parseInterval(request.query.interval, CANDLE_INTERVALS, 'FIVEMIN');
      parseFlag(request.query.inverted, 'inverted');
      const pool = await pools.find(request.params.poolId);
      // The published answer is one candle object: with no swap to make it from, there is none to give.
      throw new AppError('NO_PRICE_HISTORY', `Pool ${pool.id} has no swaps to make a candle from`);
    },
  );
}
