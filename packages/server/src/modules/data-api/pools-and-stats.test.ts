import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataGet, type Harness, seedBookOneDepth, startHarness, tradeOnBookOne } from '../../test-support/harness.js';
import { testToken } from '../../test-support/tokens.js';

let harness: Harness;

beforeEach(async () => {
  harness = await startHarness({ DATA_API_AUTH: 'false', DATA_API_CACHE_MS: '0' });
});
afterEach(async () => {
  await harness.close();
});

const START = Date.UTC(2026, 10, 22, 12, 0, 0);
const DAY_START = Date.UTC(2026, 10, 22);

function get<T = Record<string, unknown>>(path: string) {
  return dataGet<T>(harness, path);
}

/** The three fills of tradeOnBookOne: 3 WHBAR for 0.751 USDC, last price 0.251. */
async function fillBookOne(): Promise<void> {
  await seedBookOneDepth(harness);
  await tradeOnBookOne(harness);
}

const LP_TOKEN = testToken(2001, { symbol: 'SSLP-WHBAR-USDC', name: 'WHBAR/USDC liquidity', decimals: 8 });

/** A WHBAR/USDC pool of 1,000 WHBAR and 251 USDC with 500 LP tokens, a farm on it and one stake. */
async function recordPool(): Promise<void> {
  const { store, clock, registry } = harness.services;
  await store.tokens.insert(LP_TOKEN, clock.now());
  await store.pools.save({
    id: 1,
    contractId: '0.0.3001',
    lpTokenId: LP_TOKEN.id,
    tokenAId: '0.0.1001',
    tokenBId: '0.0.1002',
    lpTokenReserve: 500n * 10n ** 8n,
    tokenReserveA: 1_000n * 10n ** 8n,
    tokenReserveB: 251n * 10n ** 6n,
    updatedAt: clock.now(),
  });
  await store.farms.save({
    id: 7,
    poolId: 1,
    sauceEmissions: 1_500n,
    hbarEmissions: 20n,
    totalStaked: 10n ** 9n,
    updatedAt: clock.now(),
  });
  await store.farms.saveStake({ farmId: 7, accountId: '0.0.5005', staked: 4n * 10n ** 8n, updatedAt: clock.now() });
  await registry.load();
}

describe('pools and farms', () => {
  it('serves empty lists on a fresh devnet, and 404 POOL_NOT_FOUND for any pool id', async () => {
    expect(await get('/pools')).toMatchObject({ status: 200, body: [] });
    expect(await get('/pools/known')).toMatchObject({ status: 200, body: [] });
    expect(await get('/farms')).toMatchObject({ status: 200, body: [] });
    expect(await get('/farms/totals/0.0.5005')).toMatchObject({ status: 200, body: [] });
    for (const id of ['1', '0', 'abc'])
      expect(await get(`/pools/${id}`)).toMatchObject({ status: 404, body: { code: 'POOL_NOT_FOUND' } });
  });

  it('serves a recorded pool with its tokens, reserves and LP token price', async () => {
    await fillBookOne();
    await recordPool();
    const { status, body } = await get('/pools/1');
    expect(status).toBe(200);
    expect(body).toEqual({
      id: 1,
      contractId: '0.0.3001',
      // The pool holds 1,000 WHBAR and 251 USDC (= 1,000 HBAR at 0.251): 2,000 HBAR, $502, so $1.004 per LP token.
      lpToken: { id: '0.0.2001', name: 'WHBAR/USDC liquidity', symbol: 'SSLP-WHBAR-USDC', decimals: 8, priceUsd: 1.004 },
      lpTokenReserve: '50000000000',
      tokenA: expect.objectContaining({ id: '0.0.1001', name: 'Wrapped HBAR', price: '100000000', priceUsd: 0.251 }),
      tokenReserveA: '100000000000',
      tokenB: expect.objectContaining({ id: '0.0.1002', name: 'USD Coin', price: '398406374', priceUsd: 1 }),
      tokenReserveB: '251000000',
    });
    expect((await get<unknown[]>('/pools')).body).toEqual([body]);
  });

  it('lists in /pools/known only pools whose two tokens are known', async () => {
    await recordPool();
    expect((await get<unknown[]>('/pools/known')).body).toHaveLength(1);
    await harness.services.store.tokens.update('0.0.1002', { isKnown: false }, harness.clock.now());
    await harness.services.registry.load();
    expect((await get<unknown[]>('/pools/known')).body).toEqual([]);
  });

  it('serves farms with their emissions and the stakes of an account', async () => {
    await recordPool();
    expect((await get('/farms')).body).toEqual([
      { id: 7, poolId: 1, sauceEmissions: '1500', hbarEmissions: '20', totalStaked: '1000000000' },
    ]);
    expect((await get('/farms/totals/0.0.5005')).body).toEqual([
      { farmId: 7, poolId: 1, accountId: '0.0.5005', timestamp: START, staked: '400000000' },
    ]);
    expect(await get('/farms/totals/0.0.6006')).toMatchObject({ status: 200, body: [] });
    expect(await get('/farms/totals/alice')).toMatchObject({ status: 400, body: { code: 'INVALID_ACCOUNT' } });
  });
});

describe('stats', () => {
  it('reports zeros on a fresh devnet', async () => {
    expect((await get('/stats')).body).toEqual({
      circulatingSauce: '0',
      swapTotal: 0,
      tvl: '0',
      tvlUsd: 0,
      volumeTotal: '0',
      volumeTotalUsd: 0,
    });
  });

  it('counts fills and volume, values the pools and reads the protocol token supply the operator recorded', async () => {
    await fillBookOne();
    await recordPool();
    await harness.services.store.tokens.update('0.0.1003', { circulatingSupply: 123_456_789n }, harness.clock.now());
    await harness.services.registry.load();
    expect((await get('/stats')).body).toEqual({
      circulatingSauce: '123456789',
      swapTotal: 3,
      tvl: '200000000000',
      tvlUsd: 502,
      // 0.751 USDC traded, valued at the end of the day's rate of 1/0.251 HBAR per USDC.
      volumeTotal: '299203187',
      volumeTotalUsd: 0.751,
    });
  });

  it('serves the VOLUME history per bucket and an empty LIQUIDITY history', async () => {
    await fillBookOne();
    const query = `from=${START / 1_000 - 86_400}&to=${START / 1_000}&interval=DAY`;
    expect((await get(`/stats/platformData?${query}&field=VOLUME`)).body).toEqual([
      { timestampSeconds: DAY_START / 1_000, valueHbar: '299203187', valueUsd: 0.751 },
    ]);
    expect((await get(`/stats/platformData?${query}&field=LIQUIDITY`)).body).toEqual([]);
  });

  it.each([
    ['from=1&to=2&interval=DAY', 'MISSING_PARAMETER'],
    ['from=1&to=2&interval=DAY&field=PRICE', 'INVALID_FIELD'],
    ['from=1&to=2&interval=FIVEMIN&field=VOLUME', 'INVALID_INTERVAL'],
    ['from=x&to=2&interval=DAY&field=VOLUME', 'INVALID_TIME_RANGE'],
  ])('answers /stats/platformData?%s with 400 %s', async (query, code) => {
    expect(await get(`/stats/platformData?${query}`)).toMatchObject({ status: 400, body: { code } });
  });
});
