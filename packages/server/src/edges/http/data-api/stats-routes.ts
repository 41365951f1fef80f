import { NativeUsdPoint, PlatformPoint, PlatformQuery, RangeQuery, StakingStats, Stats } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PlatformField, PlatformStats } from '../../../application/data-api/platform-stats.js';
import { parseHistoryQuery, parseMinuteQuery } from '../../../domain/data-api/history-window.js';
import { AppError } from '../../../domain/errors.js';
import { single } from '../../../domain/query-values.js';
import { type DataRouteDocs, dataRouteSchema } from './route-docs.js';

export interface StatsRoutesOptions {
  readonly stats: PlatformStats;
  readonly docs: DataRouteDocs;
}

const PLATFORM_INTERVALS = ['HOUR', 'DAY', 'WEEK'] as const;
const FIELDS: readonly PlatformField[] = ['LIQUIDITY', 'VOLUME'];

function parseField(value: string | string[] | undefined): PlatformField {
  const text = single(value, 'field');
  if (text === undefined || text === '') throw new AppError('MISSING_PARAMETER', 'field is required (LIQUIDITY or VOLUME)');
  const field = FIELDS.find((candidate) => candidate === text);
  if (field === undefined) throw new AppError('INVALID_FIELD');
  return field;
}

/** `/stats` and `/stats/platformData`: exchange-wide totals and their history. */
export async function statsRoutes(fastify: FastifyInstance, options: StatsRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { stats, docs } = options;
  const schema = dataRouteSchema(docs, 'stats');

  app.get(
    '/stats',
    {
      schema: schema(
        'Exchange totals',
        'Fills and pool swaps, their volume (tinybar and USD) since the exchange opened, and the value locked in the pools.',
        Stats,
      ),
    },
    () => stats.stats(),
  );
  app.get(
    '/stats/sss',
    {
      schema: schema(
        'Single-sided staking',
        'Protocol tokens held by the staking contract, its shares in existence, tokens per share and the APR of the last five days, from the chain.',
        StakingStats,
      ),
    },
    () => stats.staking(),
  );
  app.get(
    '/stats/hbarHistoricalPrices',
    {
      schema: {
        ...schema(
          'HBAR price history',
          'The USD price of HBAR at the end of every minute that begins in `from`..`to` (unix seconds, `to` excluded; at most a week, 10,080 minutes), from the native/USD book, from its first trade on.',
          Type.Array(NativeUsdPoint),
          400,
        ),
        querystring: RangeQuery,
      },
    },
    (request) => stats.nativeUsd(parseMinuteQuery(request.query)),
  );
  app.get(
    '/stats/platformData',
    {
      schema: {
        ...schema(
          'Exchange history',
          '`field` (VOLUME or LIQUIDITY) per bucket of `interval` (HOUR, DAY, WEEK) overlapping `from`..`to` (unix seconds); buckets without trades are left out.',
          Type.Array(PlatformPoint),
          400,
        ),
        querystring: PlatformQuery,
      },
    },
    (request) => {
      const window = parseHistoryQuery(request.query, PLATFORM_INTERVALS);
      return stats.series(parseField(request.query.field), window);
    },
  );
}
