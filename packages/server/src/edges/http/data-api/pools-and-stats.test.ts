import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedFill } from '../../../test-support/fills.js';
import { dataGet, type Harness, seedBookOneDepth, startHarness, tradeOnBookOne } from '../../../test-support/harness.js';
import { recordPool } from '../../../test-support/pools.js';

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
    await recordPool(harness);
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
    await recordPool(harness);
    expect((await get<unknown[]>('/pools/known')).body).toHaveLength(1);
    await harness.services.store.tokens.update('0.0.1002', { isKnown: false }, harness.clock.now());
    await harness.services.registry.load();
    expect((await get<unknown[]>('/pools/known')).body).toEqual([]);
  });

  it('serves farms with their emissions in whole tokens a second and the stakes of an account with ledger times', async () => {
    await recordPool(harness);
    expect((await get('/farms')).body).toEqual([
      {
        id: 7,
        poolId: 1,
        // 1,500,000 raw units of SAUCE (6 decimals) and 20 tinybar a second.
        sauceEmissions: 1.5,
        hbarEmissions: 0.0000002,
        totalStaked: '1000000000',
        sauceEmissionsRaw: '1500000',
        hbarEmissionsRaw: '20',
      },
    ]);
    harness.clock.advance(387);
    await harness.services.store.farms.saveStake({
      farmId: 7,
      accountId: '0.0.5005',
      staked: 5n,
      updatedAt: harness.clock.now(),
    });
    expect((await get('/farms/totals/0.0.5005')).body).toEqual([
      { farmId: 7, poolId: 1, accountId: '0.0.5005', timestamp: `${START / 1_000}.387000000`, staked: '5' },
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
    await recordPool(harness);
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

  it('reports single-sided staking with nothing staked while no staking contract exists', async () => {
    expect(await get('/stats/sss')).toMatchObject({
      status: 200,
      body: { avg5day: 0, ratio: 1, sauce: '0', timestampSeconds: START / 1_000, xsauce: '0' },
    });
  });

  it('gives the USD price of HBAR at the end of every minute from the first trade of the native/USD book on', async () => {
    const minutes = (n: number) => n * 60_000;
    await harness.services.store.trades.append([
      storedFill(harness, 1, START - minutes(10), 24_000, 10),
      storedFill(harness, 1, START - minutes(3), 25_000, 10),
    ]);
    const { status, body } = await get<{ priceUsd: number; timestampSeconds: number }[]>(
      `/stats/hbarHistoricalPrices?from=${(START - minutes(15)) / 1_000}&to=${(START + minutes(30)) / 1_000}`,
    );
    expect(status).toBe(200);
    // Prices are read from the 5-minute candles: a minute takes the close of the last one begun by its end.
    const at = (ago: number) => (START - minutes(ago)) / 1_000;
    expect(body).toEqual([
      ...[10, 9, 8, 7, 6].map((ago) => ({ priceUsd: 0.24, timestampSeconds: at(ago) })),
      ...[5, 4, 3, 2, 1, 0].map((ago) => ({ priceUsd: 0.25, timestampSeconds: at(ago) })),
    ]);
  });

  it('gives the last week as 10,080 minutes, however far into a minute it is asked', async () => {
    await harness.services.store.trades.append([storedFill(harness, 1, START - 8 * 24 * 3_600_000, 25_000, 10)]);
    for (const offset of [0, 17]) {
      const to = START / 1_000 - offset;
      const { status, body } = await get<unknown[]>(`/stats/hbarHistoricalPrices?from=${to - 7 * 24 * 3_600}&to=${to}`);
      expect(status).toBe(200);
      expect(body).toHaveLength(10_080);
    }
  });

  it.each([
    ['to=2', 'MISSING_PARAMETER'],
    ['from=1', 'MISSING_PARAMETER'],
    ['from=20&to=10', 'INVALID_TIME_RANGE'],
    ['from=1.5&to=10', 'INVALID_TIME_RANGE'],
    ['from=0&to=604860', 'INVALID_TIME_RANGE'],
  ])('answers /stats/hbarHistoricalPrices?%s with 400 %s', async (query, code) => {
    expect(await get(`/stats/hbarHistoricalPrices?${query}`)).toMatchObject({ status: 400, body: { code } });
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
