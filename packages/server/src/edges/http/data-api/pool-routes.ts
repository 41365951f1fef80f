import { AccountParams, Farm, FarmTotal, Pool, PoolParams } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PoolDirectory } from '../../../application/data-api/pool-directory.js';
import { stakerAccount } from './account-param.js';
import { type DataRouteDocs, dataRouteSchema } from './route-docs.js';

export interface PoolRoutesOptions {
  readonly pools: PoolDirectory;
  readonly docs: DataRouteDocs;
}

/** `/pools...` and `/farms...`: the constant-product pools and liquidity-mining farms the store holds. */
export async function poolRoutes(fastify: FastifyInstance, options: PoolRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { pools, docs } = options;
  const schema = dataRouteSchema(docs, 'pools and farms');

  app.get(
    '/pools',
    { schema: schema('Pools', 'Every constant-product pool with its tokens and reserves.', Type.Array(Pool)) },
    () => pools.list(),
  );
  app.get(
    '/pools/full',
    { schema: schema('Pools with token details', 'Every pool with the full Token objects (as /pools).', Type.Array(Pool)) },
    () => pools.list(),
  );
  app.get(
    '/pools/known',
    { schema: schema('Known pools', 'The pools whose two tokens are both on the known list.', Type.Array(Pool)) },
    () => pools.list(true),
  );
  app.get('/pools/:poolId', { schema: { ...schema('One pool', 'A pool by id.', Pool, 404), params: PoolParams } }, (request) =>
    pools.one(request.params.poolId),
  );
  app.get(
    '/farms',
    {
      schema: schema(
        'Farms',
        "Every liquidity-mining farm of a pool, with its share of the farm's emissions per second by allocation points.",
        Type.Array(Farm),
      ),
    },
    () => pools.farmList(),
  );
  app.get(
    '/farms/totals/:accountId',
    {
      schema: {
        ...schema(
          'Stakes of an account',
          "The account's stake in each farm it is in; the account is a ledger id or the EVM address it stakes from.",
          Type.Array(FarmTotal),
          400,
        ),
        params: AccountParams,
      },
    },
    (request) => pools.farmTotals(stakerAccount(request.params.accountId)),
  );
}
