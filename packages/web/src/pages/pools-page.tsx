import { type DataClient, getPools, type Pool, toDisplay } from '@dex/sdk';
import { useCallback } from 'preact/hooks';
import { DataApiAbsent } from '../data-api/data-api-absent.js';
import { type DataApiRows, DataApiTable } from '../data-api/data-api-table.js';
import { dataClient } from '../data-api/data-client.js';
import { usePolling } from '../polling.js';

/** Every request spends the page key's monthly quota, shared by all visitors: pools change slowly. */
export const DATA_API_INTERVAL_MS = 30_000;

function PoolRow({ pool }: { readonly pool: Pool }) {
  return (
    <tr data-testid="pool-row" data-pool-id={pool.id}>
      <th scope="row">
        {pool.tokenA.symbol}/{pool.tokenB.symbol}
      </th>
      <td class="num">{pool.id}</td>
      <td class="num">
        {toDisplay(pool.tokenReserveA, pool.tokenA.decimals)} <span class="unit">{pool.tokenA.symbol}</span>
      </td>
      <td class="num">
        {toDisplay(pool.tokenReserveB, pool.tokenB.decimals)} <span class="unit">{pool.tokenB.symbol}</span>
      </td>
      <td class="num">
        {toDisplay(pool.lpTokenReserve, pool.lpToken.decimals)} <span class="unit">{pool.lpToken.symbol}</span>
      </td>
    </tr>
  );
}

const POOL_COLUMNS = ['Pair', 'Pool', 'Reserve A', 'Reserve B', 'LP supply'];

async function poolRows(client: DataClient): Promise<DataApiRows<Pool>> {
  const pools = await getPools(client);
  return { rows: pools.data, quota: pools.quota };
}

function PoolsTable({ client }: { readonly client: DataClient }) {
  const fetchPools = useCallback(() => poolRows(client), [client]);
  const pools = usePolling(fetchPools, DATA_API_INTERVAL_MS);
  return (
    <DataApiTable
      polled={pools}
      what="pools"
      testId="pools"
      columns={POOL_COLUMNS}
      row={(pool) => <PoolRow key={pool.id} pool={pool} />}
    />
  );
}

/** The AMM's constant-product pools from the data API, on the page's own key. */
export function PoolsPage() {
  return (
    <div class="page">
      <h1>Pools</h1>
      {dataClient === null ? <DataApiAbsent what="pools" /> : <PoolsTable client={dataClient} />}
    </div>
  );
}
