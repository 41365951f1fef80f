import { type DataClient, type Farm, getFarms, getPools, type Pool, toDisplay } from '@dex/sdk';
import { useCallback } from 'preact/hooks';
import { DataApiAbsent } from '../data-api/data-api-absent.js';
import { dataClient } from '../data-api/data-client.js';
import { QuotaLine } from '../data-api/quota-line.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { usePolling } from '../polling.js';
import { DATA_API_INTERVAL_MS } from './pools-page.js';

/** The native coin's decimals: HBAR emissions arrive in tinybar. */
const NATIVE_DECIMALS = 8;

function FarmRow({ farm, pool }: { readonly farm: Farm; readonly pool: Pool | undefined }) {
  const lp = pool?.lpToken;
  return (
    <tr data-testid="farm-row" data-farm-id={farm.id}>
      <th scope="row">{farm.id}</th>
      <td>{pool === undefined ? `pool ${farm.poolId}` : `${pool.tokenA.symbol}/${pool.tokenB.symbol} LP`}</td>
      {/* The API's own display figure; the exact raw one is there when the server sends it. */}
      <td class="num">{String(farm.sauceEmissions)}</td>
      <td class="num">
        {farm.hbarEmissionsRaw === undefined ? String(farm.hbarEmissions) : toDisplay(farm.hbarEmissionsRaw, NATIVE_DECIMALS)}
      </td>
      <td class="num">
        {lp === undefined ? farm.totalStaked : toDisplay(farm.totalStaked, lp.decimals)}{' '}
        <span class="unit">{lp?.symbol ?? 'raw'}</span>
      </td>
    </tr>
  );
}

async function farmsWithPools(client: DataClient) {
  const [farms, pools] = await Promise.all([getFarms(client), getPools(client)]);
  return { farms: farms.data, pools: new Map(pools.data.map((pool) => [pool.id, pool])), quota: pools.quota };
}

function FarmsTable({ client }: { readonly client: DataClient }) {
  const fetchFarms = useCallback(() => farmsWithPools(client), [client]);
  const farms = usePolling(fetchFarms, DATA_API_INTERVAL_MS);
  return (
    <>
      <ErrorNotice error={farms.error} context="Loading the farms" staleSince={farms.updatedAt} />
      {farms.data === undefined ? null : farms.data.farms.length === 0 ? (
        <p class="muted">No farms yet.</p>
      ) : (
        <div class="table-scroll">
          <table class="farms" data-testid="farms">
            <thead>
              <tr>
                <th scope="col">Farm</th>
                <th scope="col">Stakes</th>
                <th scope="col">SAUCE per second</th>
                <th scope="col">HBAR per second</th>
                <th scope="col">Total staked</th>
              </tr>
            </thead>
            <tbody>
              {farms.data.farms.map((farm) => (
                <FarmRow key={farm.id} farm={farm} pool={farms.data?.pools.get(farm.poolId)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <QuotaLine quota={farms.data?.quota} />
    </>
  );
}

/** The liquidity-mining farms from the data API, on the page's own key. */
export function FarmsPage() {
  return (
    <div class="page">
      <h1>Farms</h1>
      {dataClient === null ? <DataApiAbsent what="farms" /> : <FarmsTable client={dataClient} />}
    </div>
  );
}
