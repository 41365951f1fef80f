import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawServer, startRawServer } from '../test-support/server.js';
import { getDefaultTokens } from './actions/get-default-tokens.js';
import { getFarmTotals } from './actions/get-farm-totals.js';
import { getFarms } from './actions/get-farms.js';
import { getLatestTokenPrice } from './actions/get-latest-token-price.js';
import { getPool } from './actions/get-pool.js';
import { getTokenPrices } from './actions/get-token-prices.js';
import { getTokens } from './actions/get-tokens.js';
import { createDataClient, type DataClient } from './data-client.js';
import { DEFAULT_TOKEN_ICON } from './types.js';

/** A token as servers before the published shapes listed it on /tokens: no name, no listing time, a null icon. */
const OLD_TOKEN = {
  id: '0.0.1002',
  icon: null,
  symbol: 'USDC',
  decimals: 6,
  price: '398406374',
  priceUsd: 1,
  dueDiligenceComplete: true,
  isFeeOnTransferToken: false,
};
const OLD_FULL_TOKEN = {
  ...OLD_TOKEN,
  name: 'USD Coin',
  description: null,
  website: null,
  sentinelReport: null,
  twitterHandle: null,
};

/** A candle as those servers sent it: prices as decimal strings. */
const OLD_CANDLE = {
  tokenId: '0.0.1002',
  open: '400000000',
  high: '400000000',
  low: '398406374',
  close: '398406374',
  avg: '399467376',
  openUsd: 1.004,
  highUsd: 1.004,
  lowUsd: 1,
  closeUsd: 1,
  avgUsd: 1.0026,
  volume: '299203187',
  liquidity: '0',
  volumeUsd: 0.751,
  liquidityUsd: 0,
  timestampSeconds: 1795348801,
  startTimestampSeconds: 1795348800,
};

/** The answers of an older deployment, by path; anything else is its 404. */
const OLD_ANSWERS: Record<string, unknown> = {
  '/data/tokens': [OLD_TOKEN],
  '/data/tokens/default': [OLD_FULL_TOKEN],
  '/data/farms': [{ id: 7, poolId: 1, sauceEmissions: '2306200', hbarEmissions: '1030000', totalStaked: '955338445589' }],
  '/data/farms/totals/0.0.12345': [
    { farmId: 7, poolId: 1, accountId: '0.0.12345', timestamp: 1_682_469_351_387, staked: '95533844' },
  ],
  '/data/tokens/prices/0.0.1002': [OLD_CANDLE],
  '/data/tokens/prices/latest/0.0.1002': OLD_CANDLE,
  '/data/pools/1': {
    id: 1,
    contractId: '0.0.3001',
    lpToken: { id: '0.0.2001', name: 'LP', symbol: 'LP', decimals: 8, priceUsd: 1 },
    lpTokenReserve: '1',
    tokenA: OLD_FULL_TOKEN,
    tokenReserveA: '1',
    tokenB: OLD_FULL_TOKEN,
    tokenReserveB: '1',
  },
};

let server: RawServer;
let client: DataClient;

beforeAll(async () => {
  server = await startRawServer((request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const body = OLD_ANSWERS[path];
    const found = body !== undefined;
    response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        found
          ? body
          : path.startsWith('/data/tokens/prices/latest/')
            ? { error: 'The token has no trades to make a candle from', code: 'NO_PRICE_HISTORY' }
            : { error: 'Not found', code: 'NOT_FOUND' },
      ),
    );
  });
  client = createDataClient({ baseUrl: `${server.url}/data`, apiKey: '00000000-0000-4000-8000-000000000000' });
});

afterAll(async () => {
  await server.close();
});

describe('data client against a server from before the published shapes', () => {
  it('reads candle prices sent as strings as numbers', async () => {
    const { data } = await getTokenPrices(client, { tokenId: '0.0.1002', from: 1, to: 2, interval: 'HOUR' });
    expect(data[0]).toMatchObject({ open: 400000000, high: 400000000, low: 398406374, close: 398406374, avg: 399467376 });
  });

  it('reads the single latest candle as a list of one, and its 404 for a token that never traded as []', async () => {
    const latest = await getLatestTokenPrice(client, { tokenId: '0.0.1002' });
    expect(latest.data).toEqual([expect.objectContaining({ tokenId: '0.0.1002', close: 398406374 })]);
    expect((await getLatestTokenPrice(client, { tokenId: '0.0.1003' })).data).toEqual([]);
    await expect(getPool(client, { poolId: 2 })).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('reads raw farm emissions as whole tokens a second, keeping them exactly, and stake times in ms as ledger times', async () => {
    expect((await getFarms(client)).data).toEqual([
      {
        id: 7,
        poolId: 1,
        sauceEmissions: 2.3062,
        hbarEmissions: 0.0103,
        totalStaked: '955338445589',
        sauceEmissionsRaw: '2306200',
        hbarEmissionsRaw: '1030000',
      },
    ]);
    expect((await getFarmTotals(client, { accountId: '0.0.12345' })).data[0]?.timestamp).toBe('1682469351.387000000');
  });

  it('gives tokens the default icon, their symbol for a missing name, and 0 for a missing listing time and price changes', async () => {
    const { data } = await getTokens(client);
    expect(data).toEqual([{ ...OLD_TOKEN, icon: DEFAULT_TOKEN_ICON, name: 'USDC', timestampSecondsLastListingChange: 0 }]);
    const [usdc] = (await getDefaultTokens(client)).data;
    expect(usdc).toMatchObject({ name: 'USD Coin', liquidityUsd: 0, priceChangeHour: 0, priceChangeDay: 0, priceChangeWeek: 0 });
    const pool = (await getPool(client, { poolId: 1 })).data;
    expect(pool.tokenA).toMatchObject({ name: 'USD Coin', icon: DEFAULT_TOKEN_ICON, timestampSecondsLastListingChange: 0 });
  });
});
