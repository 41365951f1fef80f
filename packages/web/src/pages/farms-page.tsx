import { type DataClient, type Farm, getFarms, getPools, type Pool, toDisplay } from '@dex/sdk';
import { useCallback } from 'preact/hooks';
import { DataApiAbsent } from '../data-api/data-api-absent.js';
import { type DataApiRows, DataApiTable } from '../data-api/data-api-table.js';
import { dataClient } from '../data-api/data-client.js';
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

const FARM_COLUMNS = ['Farm', 'Stakes', 'SAUCE per second', 'HBAR per second', 'Total staked'];

/** A farm beside the pool whose LP token it stakes (its symbol and decimals). */
interface FarmOfPool {
  readonly farm: Farm;
  readonly pool: Pool | undefined;
}

async function farmRows(client: DataClient): Promise<DataApiRows<FarmOfPool>> {
  const [farms, pools] = await Promise.all([getFarms(client), getPools(client)]);
  const byId = new Map(pools.data.map((pool) => [pool.id, pool]));
  return { rows: farms.data.map((farm) => ({ farm, pool: byId.get(farm.poolId) })), quota: pools.quota };
}

function FarmsTable({ client }: { readonly client: DataClient }) {
  const fetchFarms = useCallback(() => farmRows(client), [client]);
  const farms = usePolling(fetchFarms, DATA_API_INTERVAL_MS);
  return (
    <DataApiTable
      polled={farms}
      what="farms"
      testId="farms"
      columns={FARM_COLUMNS}
      row={({ farm, pool }) => <FarmRow key={farm.id} farm={farm} pool={pool} />}
    />
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
