import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataGet, type Harness, startHarness } from '../../../test-support/harness.js';
import { recordPool, STAKER } from '../../../test-support/pools.js';

let harness: Harness;

beforeEach(async () => {
  harness = await startHarness({ DATA_API_AUTH: 'false', DATA_API_CACHE_MS: '0' });
  await recordPool(harness);
});
afterEach(async () => {
  await harness.close();
});

function get<T = Record<string, unknown>>(path: string) {
  return dataGet<T>(harness, path);
}

const RANGE = 'from=1795300000&to=1795348800&interval=HOUR';

describe('pool routes of a pool recorded by hand, without history', () => {
  it('lists /pools/full like /pools, never taken for a pool id', async () => {
    const full = await get<{ id: number }[]>('/pools/full');
    expect(full.status).toBe(200);
    expect(full.body.map((pool) => pool.id)).toEqual([1]);
    expect(full.body).toEqual((await get<unknown[]>('/pools')).body);
  });

  it.each(['daily', 'weekly', 'monthly', 'yearly'])(
    'answers /pools/%s with the pool (no volume), its series with [] (no changes recorded), and 404 for an unknown pool',
    async (period) => {
      // 1,000 WHBAR (the native token) and, by the pool's equal sides, as much again in USDC: 2,000 HBAR now.
      expect(await get(`/pools/${period}`)).toMatchObject({
        status: 200,
        body: [{ poolId: 1, timestampSeconds: 1795348800, liquidity: '200000000000', volume: '0' }],
      });
      expect(await get(`/pools/${period}/1`)).toMatchObject({ status: 200, body: [] });
      expect(await get(`/pools/${period}/9`)).toMatchObject({ status: 404, body: { code: 'POOL_NOT_FOUND' } });
    },
  );

  it('answers the candles of a pool without swaps with [], and its latest candle at its current rate with no volume', async () => {
    expect(await get(`/pools/conversionRates/1?${RANGE}`)).toMatchObject({ status: 200, body: [] });
    expect(await get(`/pools/conversionRates/1?${RANGE}&inverted=TRUE`)).toMatchObject({ status: 200, body: [] });
    // 251 USDC for 1,000 WHBAR: 0.251 USDC a WHBAR, 3.98... WHBAR a USDC inverted; today's candle so far.
    const day = Date.UTC(2026, 10, 22) / 1_000;
    const rate = { open: 0.251, high: 0.251, low: 0.251, close: 0.251, avg: 0.251 };
    expect(await get('/pools/conversionRates/latest/1?interval=DAY&inverted=false')).toMatchObject({
      status: 200,
      body: { poolId: 1, ...rate, volume: '0', volumeUsd: '0', startTimestampSeconds: day, timestampSeconds: 1795348800 },
    });
    const inverted = await get<Record<string, number>>('/pools/conversionRates/latest/1?inverted=true');
    expect(inverted.body).toMatchObject({ open: 1 / 0.251, close: 1 / 0.251, volume: '0' });
    expect(await get(`/pools/conversionRates/9?${RANGE}`)).toMatchObject({ status: 404, body: { code: 'POOL_NOT_FOUND' } });
    expect(await get('/pools/conversionRates/latest/9')).toMatchObject({ status: 404, body: { code: 'POOL_NOT_FOUND' } });
  });

  it.each([
    ['/pools/conversionRates/1?from=1&to=2', 'MISSING_PARAMETER'],
    ['/pools/conversionRates/1?from=3&to=2&interval=HOUR', 'INVALID_TIME_RANGE'],
    [`/pools/conversionRates/1?${RANGE}&inverted=maybe`, 'VALIDATION_FAILED'],
    ['/pools/conversionRates/latest/1?interval=YEAR', 'INVALID_INTERVAL'],
    ['/v2/pools/conversionRates/1?from=1&to=2&interval=MINUTE', 'INVALID_INTERVAL'],
    ['/v2/nfts/alice/positions', 'INVALID_ACCOUNT'],
    ['/v2/rewards/account/0x12', 'INVALID_ACCOUNT'],
  ])('answers %s with 400 %s', async (path, code) => {
    expect(await get(path)).toMatchObject({ status: 400, body: { code } });
  });
});

describe('V2 routes without V2 pools', () => {
  it('lists no V2 pools, positions or rewards, and finds no V2 pool', async () => {
    for (const path of ['/v2/pools', '/v2/pools/full', `/v2/nfts/${STAKER}/positions`, `/V2/nfts/${STAKER}/positions`]) {
      expect(await get(path)).toMatchObject({ status: 200, body: [] });
    }
    expect(await get(`/v2/rewards/account/${STAKER}`)).toMatchObject({ status: 200, body: [] });
    expect(await get('/v2/pools/1')).toMatchObject({ status: 404, body: { code: 'POOL_NOT_FOUND', error: 'No V2 pool 1' } });
    expect(await get(`/v2/pools/conversionRates/1?${RANGE}`)).toMatchObject({ status: 404, body: { code: 'POOL_NOT_FOUND' } });
  });
});
