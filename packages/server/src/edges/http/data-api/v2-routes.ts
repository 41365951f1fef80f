import {
  AccountParams,
  LariData,
  PoolCandle,
  PoolHistoryQuery,
  PoolParams,
  PoolV2,
  PoolV2Compact,
  PositionV2,
} from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { CANDLE_INTERVALS, parseHistoryQuery } from '../../../domain/data-api/history-window.js';
import { AppError } from '../../../domain/errors.js';
import { parseFlag } from '../../../domain/query-values.js';
import { ledgerAccount } from './account-param.js';
import { type DataRouteDocs, dataRouteSchema } from './route-docs.js';

export interface V2RoutesOptions {
  readonly docs: DataRouteDocs;
}

const NONE = 'The exchange has no concentrated-liquidity (V2) pools: the list is empty.';

/** Checks the account id, then answers the empty list: there is nothing V2 to list. */
function noneForAccount(request: { params: { accountId: string } }): never[] {
  ledgerAccount(request.params.accountId);
  return [];
}

function noV2Pool(poolId: string): AppError {
  return new AppError('POOL_NOT_FOUND', `No V2 pool ${poolId.slice(0, 64)}`);
}

/**
 * `/v2/...`: concentrated-liquidity pools, their positions and rewards. The exchange runs none, so
 * lists are empty, a pool id is never found, and a malformed account id is still a 400.
 */
export async function v2Routes(fastify: FastifyInstance, options: V2RoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schema = dataRouteSchema(options.docs, 'V2 pools');

  app.get('/v2/pools', { schema: schema('V2 pools', NONE, Type.Array(PoolV2Compact)) }, () => []);
  app.get('/v2/pools/full', { schema: schema('V2 pools with token details', NONE, Type.Array(PoolV2)) }, () => []);
  app.get(
    '/v2/pools/:poolId',
    { schema: { ...schema('One V2 pool', 'A V2 pool by id; there is none, so always 404.', PoolV2, 404), params: PoolParams } },
    (request) => {
      throw noV2Pool(request.params.poolId);
    },
  );
  app.get(
    '/v2/pools/conversionRates/:poolId',
    {
      schema: {
        ...schema(
          'V2 pool candles',
          'Candles of a V2 pool; there is none, so 404 once the query is valid.',
          Type.Array(PoolCandle),
          400,
          404,
        ),
        params: PoolParams,
        querystring: PoolHistoryQuery,
      },
    },
    (request) => {
      parseHistoryQuery(request.query, CANDLE_INTERVALS);
      parseFlag(request.query.inverted, 'inverted');
      throw noV2Pool(request.params.poolId);
    },
  );
  const positions = {
    schema: {
      ...schema('Positions of an account', `The account's V2 liquidity positions. ${NONE}`, Type.Array(PositionV2), 400),
      params: AccountParams,
    },
  };
  app.get('/v2/nfts/:accountId/positions', positions, noneForAccount);
  // The docs' own sample spells the version in capitals.
  app.get('/V2/nfts/:accountId/positions', { schema: { ...positions.schema, hide: true } }, noneForAccount);
  app.get(
    '/v2/rewards/account/:accountId',
    {
      schema: {
        ...schema(
          'Rewards of an account',
          `The account's liquidity rewards of the current epoch. ${NONE}`,
          Type.Array(LariData),
          400,
        ),
        params: AccountParams,
      },
    },
    noneForAccount,
  );
}
