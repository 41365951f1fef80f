import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedFill } from '../../../test-support/fills.js';
import { dataGet, type Harness, startHarness } from '../../../test-support/harness.js';
import { recordPool } from '../../../test-support/pools.js';

let harness: Harness;

beforeEach(async () => {
  harness = await startHarness({ DATA_API_AUTH: 'false', DATA_API_CACHE_MS: '0' });
});
afterEach(async () => {
  await harness.close();
});

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The harness clock: Sunday 2026-11-22 12:00 UTC. */
const START = Date.UTC(2026, 10, 22, 12, 0, 0);

function get<T = Record<string, unknown>>(path: string) {
  return dataGet<T>(harness, path);
}

/** One WHBAR traded on book 1 (WHBAR/USDC) at each `[ms ago, ticks]`. */
async function trade(...fills: [number, number][]): Promise<void> {
  await harness.services.store.trades.append(fills.map(([ago, ticks]) => storedFill(harness, 1, START - ago, ticks, 10)));
}

interface Point {
  timestampSeconds: number;
  tokenId: string;
  price: string;
  liquidity: string;
  volume: string;
}

describe('GET /tokens/{daily,weekly,monthly,yearly}/:tokenId', () => {
  it('gives a point per hour of the last day from the first price on, carrying the price through hours without trades', async () => {
    // USDC at 1/0.24 HBAR two hours ago, 1/0.25 half an hour ago; each fill is 1 WHBAR, 1 HBAR of volume.
    await trade([2 * HOUR_MS, 24_000], [HOUR_MS / 2, 25_000]);
    const { status, body } = await get<Point[]>('/tokens/daily/0.0.1002');
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        timestampSeconds: (START - 2 * HOUR_MS) / 1_000,
        tokenId: '0.0.1002',
        price: '416666666',
        liquidity: '0',
        volume: '100000000',
      },
      {
        timestampSeconds: (START - HOUR_MS) / 1_000,
        tokenId: '0.0.1002',
        price: '400000000',
        liquidity: '0',
        volume: '100000000',
      },
      { timestampSeconds: START / 1_000, tokenId: '0.0.1002', price: '400000000', liquidity: '0', volume: '0' },
    ]);
  });

  it('spans 24 hours, 168 hours, 30 days and 365 days, the running bucket last', async () => {
    await trade([400 * DAY_MS, 25_000]);
    const lengths: Record<string, number> = {};
    for (const period of ['daily', 'weekly', 'monthly', 'yearly']) {
      const points = (await get<Point[]>(`/tokens/${period}/0.0.1001`)).body;
      lengths[period] = points.length;
      expect(points.at(-1)?.timestampSeconds).toBe(
        period === 'daily' || period === 'weekly' ? START / 1_000 : START / 1_000 - 12 * 3_600,
      );
      expect(points.every((point) => point.price === '100000000' && point.volume === '0')).toBe(true);
    }
    expect(lengths).toEqual({ daily: 24, weekly: 168, monthly: 30, yearly: 365 });
  });

  it('answers [] for a token never priced and 404 for an unknown one', async () => {
    expect(await get('/tokens/weekly/0.0.1003')).toMatchObject({ status: 200, body: [] });
    expect(await get('/tokens/weekly/0.0.4242')).toMatchObject({ status: 404, body: { code: 'TOKEN_NOT_FOUND' } });
  });
});

describe('GET /tokens/{daily,weekly,monthly,yearly}', () => {
  it("gives every token the period's volume with its price and pool liquidity now (never mistaken for a token id)", async () => {
    await trade([2 * DAY_MS, 20_000], [2 * HOUR_MS, 24_000], [HOUR_MS / 2, 25_000]);
    await recordPool(harness);
    const daily = await get<Point[]>('/tokens/daily');
    expect(daily.status).toBe(200);
    expect(daily.body).toEqual([
      // The native coin: worth one coin, in no pool, traded on no book yet.
      { timestampSeconds: START / 1_000, tokenId: '0.0.0', price: '100000000', liquidity: '0', volume: '0' },
      // The pool holds 1,000 WHBAR and 251 USDC (1,004 HBAR at 0.25); the day's two fills were 1 HBAR each.
      {
        timestampSeconds: START / 1_000,
        tokenId: '0.0.1001',
        price: '100000000',
        liquidity: '100000000000',
        volume: '200000000',
      },
      {
        timestampSeconds: START / 1_000,
        tokenId: '0.0.1002',
        price: '400000000',
        liquidity: '100400000000',
        volume: '200000000',
      },
      // A pool's LP token is the pair itself, not a token of the registry: it is not listed.
      { timestampSeconds: START / 1_000, tokenId: '0.0.1003', price: '0', liquidity: '0', volume: '0' },
    ]);
    const weekly = (await get<Point[]>('/tokens/weekly')).body;
    expect(weekly.map((point) => point.volume)).toEqual(['0', '300000000', '300000000', '0']);
  });
});

describe('GET /tokens/associated-pools/:tokenId', () => {
  it('lists the pools that hold the token, [] for a token no pool holds, and 404 for an unknown token', async () => {
    await recordPool(harness);
    const pools = await get<{ id: number }[]>('/tokens/associated-pools/0.0.1002');
    expect(pools.status).toBe(200);
    expect(pools.body).toEqual((await get<unknown[]>('/pools')).body);
    expect(pools.body.map((pool) => pool.id)).toEqual([1]);
    expect(await get('/tokens/associated-pools/0.0.1003')).toMatchObject({ status: 200, body: [] });
    expect(await get('/tokens/associated-pools/0.0.4242')).toMatchObject({ status: 404, body: { code: 'TOKEN_NOT_FOUND' } });
  });
});
