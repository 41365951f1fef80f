import { type DataClient, getPools, type Pool, toDisplay } from '@dex/sdk';
import { useCallback } from 'preact/hooks';
import { DataApiAbsent } from '../data-api/data-api-absent.js';
import { dataClient } from '../data-api/data-client.js';
import { QuotaLine } from '../data-api/quota-line.js';
import { ErrorNotice } from '../errors/error-notice.js';
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

function PoolsTable({ client }: { readonly client: DataClient }) {
  const fetchPools = useCallback(() => getPools(client), [client]);
  const pools = usePolling(fetchPools, DATA_API_INTERVAL_MS);
  return (
    <>
      <ErrorNotice error={pools.error} context="Loading the pools" staleSince={pools.updatedAt} />
      {pools.data === undefined ? null : pools.data.data.length === 0 ? (
        <p class="muted">No pools yet.</p>
      ) : (
        <div class="table-scroll">
          <table class="pools" data-testid="pools">
            <thead>
              <tr>
                <th scope="col">Pair</th>
                <th scope="col">Pool</th>
                <th scope="col">Reserve A</th>
                <th scope="col">Reserve B</th>
                <th scope="col">LP supply</th>
              </tr>
            </thead>
            <tbody>
              {pools.data.data.map((pool) => (
                <PoolRow key={pool.id} pool={pool} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <QuotaLine quota={pools.data?.quota} />
    </>
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
