import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { single } from '../../http/query.js';
import { parseHistoryQuery } from './history-window.js';
import type { PlatformField, PlatformStats } from './platform-stats.js';
import { type DataRouteDocs, dataRouteSchema } from './route-docs.js';
import { PlatformPoint, PlatformQuery, Stats } from './schemas.js';

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
    { schema: schema('Exchange totals', 'Fills, volume (tinybar and USD) and value locked since the exchange opened.', Stats) },
    () => stats.stats(),
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
