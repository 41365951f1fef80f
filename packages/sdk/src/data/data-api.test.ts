import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import {
  issueApiKey,
  recordingFetch,
  seedBookOneDepth,
  startTestServer,
  type TestServer,
  tradeOnBookOne,
} from '../test-support/server.js';
import { getDefaultTokens } from './actions/get-default-tokens.js';
import { getFarmTotals } from './actions/get-farm-totals.js';
import { getFarms } from './actions/get-farms.js';
import { getHbarHistoricalPrices } from './actions/get-hbar-historical-prices.js';
import { getKnownPools } from './actions/get-known-pools.js';
import { getKnownTokens } from './actions/get-known-tokens.js';
import { getLatestPoolConversionRate } from './actions/get-latest-pool-conversion-rate.js';
import { getLatestTokenCandles } from './actions/get-latest-token-candles.js';
import { getLatestTokenPrice } from './actions/get-latest-token-price.js';
import { getPlatformData } from './actions/get-platform-data.js';
import { getPool } from './actions/get-pool.js';
import { getPoolConversionRates } from './actions/get-pool-conversion-rates.js';
import { getPoolVl } from './actions/get-pool-vl.js';
import { getPools } from './actions/get-pools.js';
import { getPoolsFull } from './actions/get-pools-full.js';
import { getPoolsVl } from './actions/get-pools-vl.js';
import { getStakingStats } from './actions/get-staking-stats.js';
import { getStats } from './actions/get-stats.js';
import { getToken } from './actions/get-token.js';
import { getTokenPools } from './actions/get-token-pools.js';
import { getTokenPriceChanges } from './actions/get-token-price-changes.js';
import { getTokenPrices } from './actions/get-token-prices.js';
import { getTokenPvl } from './actions/get-token-pvl.js';
import { getTokens } from './actions/get-tokens.js';
import { getTokensFull } from './actions/get-tokens-full.js';
import { getTokensPvl } from './actions/get-tokens-pvl.js';
import { getV2Pool } from './actions/get-v2-pool.js';
import { getV2PoolConversionRates } from './actions/get-v2-pool-conversion-rates.js';
import { getV2Pools } from './actions/get-v2-pools.js';
import { getV2PoolsFull } from './actions/get-v2-pools-full.js';
import { getV2Positions } from './actions/get-v2-positions.js';
import { getV2Rewards } from './actions/get-v2-rewards.js';
import { createDataClient, readQuota } from './data-client.js';

let api: TestServer;
let dataUrl: string;

beforeAll(async () => {
  api = await startTestServer();
  dataUrl = api.server.dataApiUrl;
  await seedBookOneDepth(api.server);
  await tradeOnBookOne(api.server);
});

afterAll(async () => {
  await api.close();
});

/** The end of the current UTC month, unix ms: when quotas reset. */
function endOfMonth(now = new Date()): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}

describe('data API client', () => {
  it('reads the token list and the quota after each request', async () => {
    const { key } = await issueApiKey(api.server, 100);
    const client = createDataClient({ baseUrl: dataUrl, apiKey: key });
    const first = await getTokens(client);
    expect(first.data.map((token) => token.symbol)).toEqual(['HBAR', 'WHBAR', 'USDC', 'SAUCE']);
    // HBAR is the native coin, WHBAR its wrapper: one whole token of either is worth one coin.
    expect(first.data[0]).toMatchObject({ id: '0.0.0', price: '100000000', decimals: 8 });
    expect(first.data[1]).toMatchObject({ id: '0.0.1001', price: '100000000', decimals: 8 });
    expect(first.quota).toEqual({ limit: 100, remaining: 99, additionalTotal: 0, resetAt: expect.any(Number) });
    expect(Math.abs((first.quota?.resetAt ?? 0) - endOfMonth())).toBeLessThan(86_400_000);
    expect((await getTokens(client)).quota?.remaining).toBe(98);
  });

  it('calls each data route with the key and parses every answer', async () => {
    const { key } = await issueApiKey(api.server, 1_000);
    const recorder = recordingFetch();
    const client = createDataClient({ baseUrl: dataUrl, apiKey: key, fetch: recorder.fetch });
    const now = Math.floor(Date.now() / 1000);
    const usdc = (await getToken(client, { tokenId: '0.0.1002' })).data;
    expect(usdc).toMatchObject({ id: '0.0.1002', symbol: 'USDC', name: expect.any(String) });
    expect((await getTokensFull(client)).data).toHaveLength(4);
    expect(Array.isArray((await getKnownTokens(client)).data)).toBe(true);
    const defaults = (await getDefaultTokens(client)).data;
    expect(defaults.map((token) => token.symbol)).toEqual(['HBAR', 'WHBAR', 'USDC', 'SAUCE']);
    expect(defaults[0]).toMatchObject({
      liquidityUsd: 0,
      priceChangeDay: expect.any(Number),
      priceChangeWeek: expect.any(Number),
    });
    expect(Object.values((await getTokenPriceChanges(client)).data).every((change) => typeof change === 'number')).toBe(true);
    const candles = (await getTokenPrices(client, { tokenId: '0.0.1002', from: now - 3600, to: now, interval: 'HOUR' })).data;
    expect(candles.length).toBeGreaterThan(0);
    expect(candles[0]).toMatchObject({ tokenId: '0.0.1002', close: expect.any(Number), avg: expect.any(Number) });
    expect(Number.isInteger(candles[0]?.close)).toBe(true);
    expect((await getLatestTokenPrice(client, { tokenId: '0.0.1002' })).data.map((candle) => candle.tokenId)).toEqual([
      '0.0.1002',
    ]);
    expect((await getLatestTokenPrice(client, { tokenId: '0.0.1003' })).data).toEqual([]);
    const latest = (await getLatestTokenCandles(client, { interval: 'HOUR' })).data;
    expect(latest.map((candle) => candle.tokenId)).toEqual(['0.0.1001', '0.0.1002']);
    const summaries = (await getTokensPvl(client, { period: 'daily' })).data;
    expect(summaries.map((point) => point.tokenId)).toEqual(['0.0.0', '0.0.1001', '0.0.1002', '0.0.1003']);
    expect(summaries.find((point) => point.tokenId === '0.0.1001')).toMatchObject({
      price: '100000000',
      volume: expect.stringMatching(/^[1-9][0-9]*$/),
    });
    const series = (await getTokenPvl(client, { tokenId: '0.0.1002', period: 'weekly' })).data;
    expect(series.at(-1)).toMatchObject({ tokenId: '0.0.1002', price: expect.stringMatching(/^[1-9][0-9]*$/) });
    expect((await getTokenPools(client, { tokenId: '0.0.1002' })).data).toEqual([]);
    expect((await getPools(client)).data).toEqual([]);
    expect((await getKnownPools(client)).data).toEqual([]);
    expect((await getFarms(client)).data).toEqual([]);
    expect((await getFarmTotals(client, { accountId: '0.0.5001' })).data).toEqual([]);
    expect((await getStats(client)).data).toMatchObject({ swapTotal: 3, volumeTotal: expect.stringMatching(/^[1-9][0-9]*$/) });
    const volume = await getPlatformData(client, { field: 'VOLUME', from: now - 86_400, to: now, interval: 'DAY' });
    expect(volume.data.length).toBeGreaterThan(0);
    const hbar = (await getHbarHistoricalPrices(client, { from: now - 600, to: now })).data;
    expect(hbar.at(-1)).toEqual({ priceUsd: 0.251, timestampSeconds: expect.any(Number) });
    expect((await getStakingStats(client)).data).toMatchObject({ ratio: 1, sauce: '0', xsauce: '0', avg5day: 0 });
    await expect(getPool(client, { poolId: 7 })).rejects.toMatchObject({ status: 404, code: 'POOL_NOT_FOUND' });
    expect((await getPoolsFull(client)).data).toEqual([]);
    expect((await getPoolsVl(client, { period: 'monthly' })).data).toEqual([]);
    await expect(getPoolVl(client, { poolId: 7, period: 'yearly' })).rejects.toMatchObject({
      status: 404,
      code: 'POOL_NOT_FOUND',
    });
    const range = { poolId: 7, from: now - 3600, to: now, interval: 'HOUR', inverted: true } as const;
    await expect(getPoolConversionRates(client, range)).rejects.toMatchObject({ status: 404, code: 'POOL_NOT_FOUND' });
    await expect(getLatestPoolConversionRate(client, { poolId: 7 })).rejects.toMatchObject({ status: 404 });
    expect((await getV2Pools(client)).data).toEqual([]);
    expect((await getV2PoolsFull(client)).data).toEqual([]);
    await expect(getV2Pool(client, { poolId: 1 })).rejects.toMatchObject({ status: 404, code: 'POOL_NOT_FOUND' });
    await expect(getV2PoolConversionRates(client, range)).rejects.toMatchObject({ status: 404, code: 'POOL_NOT_FOUND' });
    expect((await getV2Positions(client, { accountId: '0.0.5001' })).data).toEqual([]);
    expect((await getV2Rewards(client, { accountId: '0.0.5001' })).data).toEqual([]);
    expect(recorder.headers.every((headers) => headers.get('x-api-key') === key)).toBe(true);
    expect(recorder.urls.map((url) => url.slice(dataUrl.length).split('?')[0])).toEqual([
      '/tokens/0.0.1002',
      '/tokens/full',
      '/tokens/known',
      '/tokens/default',
      '/tokens/price-change',
      '/tokens/prices/0.0.1002',
      '/tokens/prices/latest/0.0.1002',
      '/tokens/prices/latest/0.0.1003',
      '/tokens/ohlcv/latest',
      '/tokens/daily',
      '/tokens/weekly/0.0.1002',
      '/tokens/associated-pools/0.0.1002',
      '/pools',
      '/pools/known',
      '/farms',
      '/farms/totals/0.0.5001',
      '/stats',
      '/stats/platformData',
      '/stats/hbarHistoricalPrices',
      '/stats/sss',
      '/pools/7',
      '/pools/full',
      '/pools/monthly',
      '/pools/yearly/7',
      '/pools/conversionRates/7',
      '/pools/conversionRates/latest/7',
      '/v2/pools',
      '/v2/pools/full',
      '/v2/pools/1',
      '/v2/pools/conversionRates/7',
      '/v2/nfts/0.0.5001/positions',
      '/v2/rewards/account/0.0.5001',
    ]);
    expect(recorder.urls.find((url) => url.includes('/pools/conversionRates/7?'))).toMatch(/[?&]inverted=true(&|$)/);
  });

  it('reports a used-up quota as a 429 with Retry-After and the quota on the error', async () => {
    const { key } = await issueApiKey(api.server, 1);
    const client = createDataClient({ baseUrl: dataUrl, apiKey: key });
    await getStats(client);
    const error = await getStats(client).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'QUOTA_EXCEEDED', retryAfterSeconds: expect.any(Number) });
    expect(readQuota((error as ApiError).headers)).toMatchObject({ limit: 1, remaining: 0 });
  });

  it('counts requests past the limit where overage is arranged', async () => {
    const { key } = await issueApiKey(api.server, 1, { overage: true });
    const client = createDataClient({ baseUrl: dataUrl, apiKey: key });
    await getStats(client);
    expect((await getStats(client)).quota).toMatchObject({ remaining: 0, additionalTotal: 1 });
  });

  it('reports an unknown key as a 401 without quota', async () => {
    const client = createDataClient({ baseUrl: dataUrl, apiKey: '00000000-0000-4000-8000-000000000000' });
    const error = await getTokens(client).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 401, code: 'API_KEY_INVALID' });
    expect(readQuota((error as ApiError).headers)).toBeNull();
  });

  it('refuses bad parameters before sending', async () => {
    const recorder = recordingFetch();
    const client = createDataClient({ baseUrl: dataUrl, apiKey: 'k', fetch: recorder.fetch });
    expect(() => getToken(client, { tokenId: '../stats' })).toThrow(expect.objectContaining({ parameter: 'tokenId' }));
    expect(() => getTokenPrices(client, { tokenId: '0.0.1', from: -1, to: 1, interval: 'DAY' })).toThrow(
      expect.objectContaining({ parameter: 'from' }),
    );
    expect(() => getPool(client, { poolId: 1.5 })).toThrow(expect.objectContaining({ parameter: 'poolId' }));
    expect(() => getTokensPvl(client, { period: 'hourly' as 'daily' })).toThrow(expect.objectContaining({ parameter: 'period' }));
    expect(() => createDataClient({ baseUrl: dataUrl, apiKey: 'two words' })).toThrow(
      expect.objectContaining({ parameter: 'apiKey' }),
    );
    expect(recorder.urls).toEqual([]);
  });

  it('never shows its key when logged', async () => {
    const { key } = await issueApiKey(api.server, 10);
    const client = createDataClient({ baseUrl: dataUrl, apiKey: key });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(key);
    expect(JSON.stringify(client)).not.toContain(key);
  });
});
