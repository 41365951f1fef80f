import type { DevnetWallet } from '@dex/contracts';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devnetPairLedgerIds } from '../../../adapters/chain/devnet/devnet-pair-ids.js';
import { AmmIndexer } from '../../../adapters/chain/indexing/amm-indexer.js';
import { AmmChain } from '../../../test-support/amm-chain.js';
import { dataGet, type Harness, ManualClock, startHarness } from '../../../test-support/harness.js';
import { PUBLISHED_PATHS } from '../../../test-support/published-schemas.js';
import { answerProblems } from '../../../test-support/published-shapes.js';

/**
 * The data API over HTTP with what the AMM indexer recorded from a real chain: two pools made
 * through the router (WHBAR/USDC and WHBAR/SAUCE), a swap in each an hour apart, two farms, a
 * stake and SAUCE staking with a reward. No book trades: every price comes from the pools.
 */

const E6 = 1_000_000n;
const E8 = 100_000_000n;
const HOUR = 3_600;

let chain: AmmChain;
let harness: Harness;
let provider: DevnetWallet;
/** Start of the UTC day of the scenario (unix seconds); the clock stands at T + 3h + 30s. */
let T: number;
let pair1: Address;
let pair2: Address;
/** Reserves now: WHBAR and USDC of pool 1, WHBAR and SAUCE of pool 2. */
let rW1: bigint;
let rU1: bigint;
let rW2: bigint;
let rS2: bigint;
let depositSeconds: number;

beforeAll(async () => {
  chain = await AmmChain.start();
  provider = await chain.wallet();
  const staker = await chain.wallet();
  T = (Math.floor((await chain.latestSeconds()) / 86_400) + 1) * 86_400;
  harness = await startHarness(
    { DATA_API_AUTH: 'false', DATA_API_CACHE_MS: '0' },
    { clock: new ManualClock((T + 3 * HOUR + 30) * 1_000) },
  );
  await chain.at(T + 600);
  await chain.addLiquidity(provider, 'WHBAR', 'USDC', 1_000n * E8, 250n * E6);
  await chain.at(T + 1_200);
  await chain.addLiquidity(provider, 'WHBAR', 'SAUCE', 100n * E8, 400n * E6);
  await chain.at(T + HOUR + 60);
  await chain.swap(provider, 'WHBAR', 'USDC', 10n * E8);
  await chain.at(T + 2 * HOUR + 60);
  await chain.swap(provider, 'SAUCE', 'WHBAR', 20n * E6);
  [pair1, pair2] = [await chain.pairOf('WHBAR', 'USDC'), await chain.pairOf('WHBAR', 'SAUCE')];
  await chain.addFarm(100n, pair1);
  await chain.addFarm(300n, pair2);
  // 4 SAUCE and 2 HBAR (2e18 wei) a second for the whole farm.
  await chain.setEmissions(4n * E6, 2n * 10n ** 18n);
  depositSeconds = T + 2 * HOUR + 600;
  await chain.deposit(provider, 0n, pair1, 1n * E8, depositSeconds);
  await chain.at(T + 2 * HOUR + 700);
  await chain.enterStaking(staker, 100n * E6);
  await chain.at(T + 2 * HOUR + 800);
  await chain.rewardStaking(10n * E6);
  await new AmmIndexer(chain.context, chain.amm, harness.services.store, harness.services.logger, devnetPairLedgerIds).catchUp();
  const one = await chain.pairState(pair1);
  const two = await chain.pairState(pair2);
  [rW1, rU1, rW2, rS2] = [one.reserveA, one.reserveB, two.reserveA, two.reserveB];
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await chain?.stop();
});

function get<T = Record<string, unknown>>(path: string) {
  return dataGet<T>(harness, path);
}

/** Fails unless the answer has the published shape of `published` (a path of the published document). */
function expectPublished(published: string, body: unknown): void {
  const path = PUBLISHED_PATHS.find((candidate) => candidate.path === published);
  if (path === undefined) throw new Error(`no published path ${published}`);
  expect(answerProblems(body, path)).toEqual([]);
}

/** US dollars per tinybar: the USDC pool prices the native coin (no book has traded). */
const usdPerTinybar = () => Number(rU1) / (Number(rW1) * 1e6);

describe('pools from the chain', () => {
  it('lists both pools with the reserves and LP supply on the chain, LP tokens priced from them', async () => {
    const { status, body } = await get<Record<string, unknown>[]>('/pools');
    expect(status).toBe(200);
    expectPublished('/pools', body);
    const supply1 = (await chain.pairState(pair1)).lpSupply;
    expect(body[0]).toEqual({
      id: 1,
      // The devnet's ledger ids of its pairs (contract-ids.ts); a pair is its own LP token.
      contractId: '0.0.1000000001',
      lpToken: {
        id: '0.0.1000000001',
        name: 'SaucerSwap LP Token',
        symbol: 'SSLP',
        decimals: 8,
        priceUsd: expect.closeTo(((2 * Number(rW1)) / (Number(supply1) / 1e8)) * usdPerTinybar(), 9),
      },
      lpTokenReserve: supply1.toString(),
      tokenA: expect.objectContaining({ id: '0.0.1001', price: '100000000' }),
      tokenReserveA: rW1.toString(),
      tokenB: expect.objectContaining({ id: '0.0.1002', price: ((rW1 * E6) / rU1).toString() }),
      tokenReserveB: rU1.toString(),
    });
    expect(body[1]).toMatchObject({ id: 2, tokenReserveA: rW2.toString(), tokenReserveB: rS2.toString() });
    expect((await get('/pools/full')).body).toEqual(body);
    expect((await get('/pools/known')).body).toEqual(body);
    expect((await get('/pools/2')).body).toEqual(body[1]);
    expect((await get('/tokens/associated-pools/0.0.1003')).body).toEqual([body[1]]);
  });

  it('prices a token no book trades through its pool, and USD through the stablecoin pool', async () => {
    const { body } = await get('/tokens/0.0.1003');
    // The WHBAR the pool holds per SAUCE, rounded down to the tinybar; USD from the exact rate.
    const price = (rW2 * E6) / rS2;
    const exact = (Number(rW2) * 1e6) / Number(rS2);
    expect(body).toMatchObject({ price: price.toString(), priceUsd: expect.closeTo(exact * usdPerTinybar(), 12) });
    expect((await get('/tokens/0.0.1002')).body).toMatchObject({ priceUsd: 1 });
  });

  it('gives each pool its hourly volume and liquidity from its first change on, and the period summary', async () => {
    const series = await get<unknown[]>('/pools/daily/1');
    expectPublished('/pools/daily/{poolId}', series.body);
    const liquidity = (2n * rW1).toString();
    expect(series.body).toEqual([
      { poolId: 1, timestampSeconds: T, liquidity: '200000000000', volume: '0' },
      // The swap paid 10 WHBAR in.
      { poolId: 1, timestampSeconds: T + HOUR, liquidity, volume: '1000000000' },
      { poolId: 1, timestampSeconds: T + 2 * HOUR, liquidity, volume: '0' },
      { poolId: 1, timestampSeconds: T + 3 * HOUR, liquidity, volume: '0' },
    ]);
    const summary = await get<unknown[]>('/pools/daily');
    expectPublished('/pools/daily', summary.body);
    const now = T + 3 * HOUR + 30;
    expect(summary.body).toEqual([
      { poolId: 1, timestampSeconds: now, liquidity, volume: '1000000000' },
      // 20 SAUCE paid in, at the SAUCE price the pool gives.
      { poolId: 2, timestampSeconds: now, liquidity: (2n * rW2).toString(), volume: ((20n * E6 * rW2) / rS2).toString() },
    ]);
  });

  it('builds price candles of a pool from its swaps, plain and inverted, and the latest one', async () => {
    const range = `from=${T}&to=${T + 3 * HOUR + 30}&interval=HOUR`;
    const { body } = await get<Record<string, unknown>[]>(`/pools/conversionRates/1?${range}`);
    expectPublished('/pools/conversionRates/{poolId}', body);
    const close = Number(rU1) / 1e6 / (Number(rW1) / 1e8);
    const candle = {
      poolId: 1,
      // USDC per WHBAR: 0.25 before the swap, lower after it.
      open: 0.25,
      high: 0.25,
      low: expect.closeTo(close, 12),
      close: expect.closeTo(close, 12),
      avg: expect.closeTo(Number(250n * E6 - rU1) / 1e6 / 10, 12),
      volume: '1000000000',
      liquidity: (2n * rW1).toString(),
      volumeUsd: expect.stringMatching(/^\d+(\.\d{1,8})?$/),
      liquidityUsd: expect.stringMatching(/^\d+(\.\d{1,8})?$/),
      timestampSeconds: T + 2 * HOUR,
      startTimestampSeconds: T + HOUR,
    };
    expect(body).toEqual([candle]);
    expect(Number(body[0]?.volumeUsd)).toBeCloseTo(1e9 * usdPerTinybar(), 6);
    const inverted = (await get<Record<string, unknown>[]>(`/pools/conversionRates/1?${range}&inverted=true`)).body;
    expect(inverted).toEqual([
      {
        ...candle,
        open: 4,
        high: expect.closeTo(1 / close, 12),
        low: 4,
        close: expect.closeTo(1 / close, 12),
        avg: expect.any(Number),
      },
    ]);
    const latest = await get('/pools/conversionRates/latest/1?interval=HOUR');
    expectPublished('/pools/conversionRates/latest/{poolId}', latest.body);
    expect(latest.body).toEqual(candle);
  });
});

describe('farms and staking from the chain', () => {
  it("lists the farms with their share of the emissions as whole tokens a second, and an account's stake", async () => {
    const farms = await get<unknown[]>('/farms');
    expectPublished('/farms', farms.body);
    expect(farms.body).toEqual([
      {
        id: 0,
        poolId: 1,
        sauceEmissions: 1,
        hbarEmissions: 0.5,
        totalStaked: '100000000',
        sauceEmissionsRaw: '1000000',
        hbarEmissionsRaw: '50000000',
      },
      {
        id: 1,
        poolId: 2,
        sauceEmissions: 3,
        hbarEmissions: 1.5,
        totalStaked: '0',
        sauceEmissionsRaw: '3000000',
        hbarEmissionsRaw: '150000000',
      },
    ]);
    const account = provider.account.address;
    const totals = await get<unknown[]>(`/farms/totals/${account}`);
    expectPublished('/farms/totals/{accountId}', totals.body);
    expect(totals.body).toEqual([
      { farmId: 0, poolId: 1, accountId: account, timestamp: `${depositSeconds}.000000000`, staked: '100000000' },
    ]);
    expect((await get('/farms/totals/0.0.4242')).body).toEqual([]);
  });

  it('answers /stats/sss with the SAUCE staked, the shares and their ratio, and the APR since the first stake', async () => {
    const { body } = await get('/stats/sss');
    expectPublished('/stats/sss', body);
    const now = T + 3 * HOUR + 30;
    const elapsedMs = (now - (T + 2 * HOUR + 700)) * 1_000;
    // A share grew from 1 to 1.1 SAUCE: 10 % over the time since, a year's worth of it.
    expect(body).toEqual({
      avg5day: expect.closeTo((0.1 * 365 * 86_400_000 * 100) / elapsedMs, 3),
      ratio: 1.1,
      sauce: '110000000',
      timestampSeconds: now,
      xsauce: '100000000',
    });
  });
});

describe('stats from the chain', () => {
  it('counts the pool swaps in /stats with their volume, and the value locked in the pools', async () => {
    const { body } = await get('/stats');
    expectPublished('/stats', body);
    const tvl = 2n * rW1 + 2n * rW2;
    expect(body).toMatchObject({
      swapTotal: 2,
      tvl: tvl.toString(),
      tvlUsd: expect.closeTo(Number(tvl) * usdPerTinybar(), 6),
      volumeTotal: (10n * E8 + (20n * E6 * rW2) / rS2).toString(),
    });
  });

  it('serves the LIQUIDITY and VOLUME series of the pools by the hour', async () => {
    const query = `from=${T}&to=${T + 3 * HOUR + 30}&interval=HOUR`;
    const liquidity = await get<{ timestampSeconds: number; valueHbar: string }[]>(
      `/stats/platformData?${query}&field=LIQUIDITY`,
    );
    expectPublished('/stats/platformData', liquidity.body);
    expect(liquidity.body.map((point) => [point.timestampSeconds, point.valueHbar])).toEqual([
      [T, '220000000000'],
      [T + HOUR, (2n * rW1 + 200n * E8).toString()],
      [T + 2 * HOUR, (2n * rW1 + 2n * rW2).toString()],
      [T + 3 * HOUR, (2n * rW1 + 2n * rW2).toString()],
    ]);
    const volume = await get<{ timestampSeconds: number; valueHbar: string }[]>(`/stats/platformData?${query}&field=VOLUME`);
    expect(volume.body.map((point) => [point.timestampSeconds, point.valueHbar])).toEqual([
      [T + HOUR, '1000000000'],
      [T + 2 * HOUR, ((20n * E6 * rW2) / rS2).toString()],
    ]);
  });
});
