import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedFill } from '../../../test-support/fills.js';
import {
  dataGet,
  type Harness,
  runOperatorOn,
  seedBookOneDepth,
  startHarness,
  tradeOnBookOne,
} from '../../../test-support/harness.js';
import { recordPool } from '../../../test-support/pools.js';

let harness: Harness;

beforeEach(async () => {
  // No key gate here (api-keys.test.ts covers it) and no caching, so every answer is computed afresh.
  harness = await startHarness({ DATA_API_AUTH: 'false', DATA_API_CACHE_MS: '0' });
});
afterEach(async () => {
  await harness.close();
});

const HOUR_S = 3_600;
const START = Date.UTC(2026, 10, 22, 12, 0, 0);

function get<T = Record<string, unknown>>(path: string) {
  return dataGet<T>(harness, path);
}

/** The three fills of tradeOnBookOne on book 1 (WHBAR/USDC): 0.5 and 1.5 WHBAR at 0.25, 1 at 0.251. */
async function fillBookOne(): Promise<void> {
  await seedBookOneDepth(harness);
  await tradeOnBookOne(harness, () => harness.clock.advance(1_000));
}

function fill(bookId: number, executedAt: number, ticks: number, steps: number) {
  return storedFill(harness, bookId, executedAt, ticks, steps);
}

describe('GET /tokens', () => {
  it('lists the registry with the native token at one coin and nothing else priced before any trade', async () => {
    const { status, body } = await get<unknown[]>('/tokens');
    expect(status).toBe(200);
    expect(body).toEqual([
      // The native coin itself, listed as the live service lists HBAR, is worth one coin like WHBAR.
      expect.objectContaining({ id: '0.0.0', symbol: 'HBAR', decimals: 8, price: '100000000', priceUsd: 0 }),
      {
        id: '0.0.1001',
        name: 'Wrapped HBAR',
        icon: '/images/tokens/default.svg',
        symbol: 'WHBAR',
        decimals: 8,
        price: '100000000',
        priceUsd: 0,
        dueDiligenceComplete: true,
        isFeeOnTransferToken: false,
        timestampSecondsLastListingChange: START / 1_000,
      },
      expect.objectContaining({ id: '0.0.1002', symbol: 'USDC', price: '0', priceUsd: 0 }),
      expect.objectContaining({ id: '0.0.1003', symbol: 'SAUCE', price: '0', priceUsd: 0 }),
    ]);
  });

  it('prices tokens in tinybar and USD from the last fill of the native/USD book', async () => {
    await fillBookOne();
    const tokens = (await get<{ id: string; price: string; priceUsd: number }[]>('/tokens')).body;
    expect(tokens.map(({ id, price, priceUsd }) => ({ id, price, priceUsd }))).toEqual([
      { id: '0.0.0', price: '100000000', priceUsd: 0.251 },
      { id: '0.0.1001', price: '100000000', priceUsd: 0.251 },
      // 1 USDC = 1 / 0.251 HBAR = 3.98406374501... HBAR, rounded down to the tinybar.
      { id: '0.0.1002', price: '398406374', priceUsd: 1 },
      { id: '0.0.1003', price: '0', priceUsd: 0 },
    ]);
  });

  it('prices a token through a second book when it has none with the native token', async () => {
    await fillBookOne();
    // SAUCE/USDC at 0.05: 1 SAUCE = 0.05 USDC = 0.199203187... HBAR.
    await harness.services.store.trades.append([fill(2, START + 2_000, 5_000, 10)]);
    const sauce = (await get<{ id: string; price: string; priceUsd: number }[]>('/tokens')).body[3];
    expect(sauce).toMatchObject({ id: '0.0.1003', price: '19920318', priceUsd: 0.05 });
  });

  it('prefers the direct book with the native token over a longer path', async () => {
    await fillBookOne();
    await harness.services.store.trades.append([fill(2, START + 2_000, 5_000, 10), fill(3, START + 3_000, 2_100, 10)]);
    // SAUCE/WHBAR at 0.21 HBAR: the one-book path wins over SAUCE -> USDC -> WHBAR.
    const sauce = (await get<{ price: string }[]>('/tokens')).body[3];
    expect(sauce?.price).toBe('21000000');
  });
});

describe('token details and curated lists', () => {
  it('answers one token with every Token field (the default icon unless the operator set one), and 404 TOKEN_NOT_FOUND for unknown or malformed ids', async () => {
    harness.clock.advance(60_000);
    expect(
      (
        await runOperatorOn(
          harness,
          'token',
          'update',
          '--id',
          '0.0.1003',
          '--website',
          'https://sauce.example',
          '--twitter-handle',
          '@sauce',
        )
      ).code,
    ).toBe(0);
    await runOperatorOn(harness, 'token', 'update', '--id', '0.0.1002', '--icon', 'https://icons.example/usdc.svg');
    await harness.services.registry.load();
    const { status, body } = await get('/tokens/0.0.1003');
    expect(status).toBe(200);
    expect(body).toEqual({
      id: '0.0.1003',
      name: 'SaucerSwap',
      icon: '/images/tokens/default.svg',
      symbol: 'SAUCE',
      decimals: 6,
      price: '0',
      priceUsd: 0,
      dueDiligenceComplete: true,
      isFeeOnTransferToken: false,
      timestampSecondsLastListingChange: START / 1_000 + 60,
      description: 'The protocol token (devnet issue).',
      website: 'https://sauce.example/',
      sentinelReport: null,
      twitterHandle: 'sauce',
    });
    expect((await get('/tokens/0.0.1002')).body).toMatchObject({ icon: 'https://icons.example/usdc.svg' });
    for (const id of ['0.0.4242', 'SAUCE', '0.0.1003x']) {
      expect(await get(`/tokens/${id}`)).toMatchObject({ status: 404, body: { code: 'TOKEN_NOT_FOUND' } });
    }
  });

  it('lists every Token field in /tokens/full and the operator-curated subsets in /tokens/known and /tokens/default', async () => {
    await runOperatorOn(harness, 'token', 'update', '--id', '0.0.1003', '--no-known');
    await runOperatorOn(harness, 'token', 'update', '--id', '0.0.1001', '--no-default');
    await harness.services.registry.load();
    const ids = async (path: string) => (await get<{ id: string }[]>(path)).body.map((token) => token.id);
    expect(await ids('/tokens/full')).toEqual(['0.0.0', '0.0.1001', '0.0.1002', '0.0.1003']);
    expect(await ids('/tokens/known')).toEqual(['0.0.0', '0.0.1001', '0.0.1002']);
    expect(await ids('/tokens/default')).toEqual(['0.0.0', '0.0.1002', '0.0.1003']);
    expect(Object.keys((await get<Record<string, unknown>[]>('/tokens/full')).body[0] ?? {})).toHaveLength(14);
  });
});

describe('GET /tokens/default', () => {
  it('gives each default token its pool liquidity in USD and the change of its USD price over an hour, a day and a week', async () => {
    const ago = (hours: number) => START - hours * HOUR_S * 1_000;
    await harness.services.store.trades.append([
      fill(1, ago(8 * 24), 20_000, 10),
      fill(1, ago(2 * 24), 24_000, 10),
      fill(1, ago(3), 22_500, 10),
      fill(1, ago(0.5), 25_000, 10),
    ]);
    await recordPool(harness);
    await runOperatorOn(harness, 'token', 'update', '--id', '0.0.1002', '--no-default');
    await harness.services.registry.load();
    const { status, body } = await get<Record<string, unknown>[]>('/tokens/default');
    expect(status).toBe(200);
    expect(body.map((token) => token.id)).toEqual(['0.0.0', '0.0.1001', '0.0.1003']);
    expect(body[1]).toMatchObject({
      id: '0.0.1001',
      symbol: 'WHBAR',
      name: 'Wrapped HBAR',
      priceUsd: 0.25,
      // The pool holds 1,000 WHBAR at $0.25.
      liquidityUsd: 250,
      // 0.225 -> 0.25, 0.24 -> 0.25, 0.20 -> 0.25.
      priceChangeHour: 11.1111,
      priceChangeDay: 4.1667,
      priceChangeWeek: 25,
    });
    // SAUCE has no price and no pool: every figure is 0.
    expect(body[2]).toMatchObject({ priceUsd: 0, liquidityUsd: 0, priceChangeHour: 0, priceChangeDay: 0, priceChangeWeek: 0 });
  });
});

describe('GET /tokens/price-change', () => {
  it('gives the 24-hour percent change of the tokens priced both now and a day ago', async () => {
    const dayAgo = START - 24 * HOUR_S * 1_000;
    await harness.services.store.trades.append([fill(1, dayAgo - 60_000, 20_000, 10), fill(1, START - 1_000, 25_000, 10)]);
    const { body } = await get('/tokens/price-change');
    // USDC: 1/0.20 HBAR a day ago, 1/0.25 now: -20%. SAUCE never traded and is left out.
    expect(body).toEqual({ '0.0.0': 0, '0.0.1001': 0, '0.0.1002': -20 });
  });
});

describe('GET /tokens/prices/:tokenId', () => {
  it('builds hourly candles of a token from its fills, in tinybar and USD', async () => {
    await fillBookOne();
    const { status, body } = await get<unknown[]>(
      `/tokens/prices/0.0.1002?from=${START / 1_000}&to=${START / 1_000 + 60}&interval=HOUR`,
    );
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        tokenId: '0.0.1002',
        // USDC is the quote token of WHBAR/USDC: dearest (4 HBAR) at the lowest price 0.25.
        open: 400000000,
        high: 400000000,
        low: 398406374,
        close: 398406374,
        // 3 WHBAR for 0.751 USDC: 300000000 / 0.751 tinybar per whole USDC, with its fraction.
        avg: 399467376.83089215,
        openUsd: 1.004,
        highUsd: 1.004,
        lowUsd: 1,
        closeUsd: 1,
        avgUsd: 1.0026631158455392, // 753 / 751
        volume: '299203187',
        liquidity: '0',
        volumeUsd: 0.751,
        liquidityUsd: 0,
        timestampSeconds: (START + 1_000) / 1_000,
        startTimestampSeconds: START / 1_000,
      },
    ]);
  });

  it('prices the native token at one coin in every candle, with its traded volume', async () => {
    await fillBookOne();
    const { body } = await get<Record<string, unknown>[]>(
      `/tokens/prices/0.0.1001?from=${START / 1_000}&to=${START / 1_000}&interval=DAY`,
    );
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({
      open: 100000000,
      close: 100000000,
      volume: '300000000',
      closeUsd: 0.251,
      volumeUsd: 0.753,
      startTimestampSeconds: Date.UTC(2026, 10, 22) / 1_000,
    });
  });

  it('puts each fill in the bucket of its interval and leaves buckets without fills out', async () => {
    const at = (hours: number) => START + hours * HOUR_S * 1_000;
    await harness.services.store.trades.append([
      fill(1, at(0), 25_000, 10),
      fill(1, at(2), 26_000, 10),
      fill(1, at(2.5), 24_000, 10),
    ]);
    const candles = (
      await get<{ startTimestampSeconds: number; close: number }[]>(
        `/tokens/prices/0.0.1002?from=${at(-1) / 1_000}&to=${at(3) / 1_000}&interval=HOUR`,
      )
    ).body;
    expect(candles.map((candle) => [candle.startTimestampSeconds, candle.close])).toEqual([
      [at(0) / 1_000, 400000000],
      [at(2) / 1_000, 416666666],
    ]);
    const weeks = (
      await get<{ startTimestampSeconds: number }[]>(
        `/tokens/prices/0.0.1002?from=${at(0) / 1_000}&to=${at(3) / 1_000}&interval=WEEK`,
      )
    ).body;
    // 2026-11-22 is a Sunday: its week began on Monday 2026-11-16.
    expect(weeks.map((candle) => candle.startTimestampSeconds)).toEqual([Date.UTC(2026, 10, 16) / 1_000]);
  });

  it.each([
    ['from=1&interval=HOUR', 400, 'MISSING_PARAMETER'],
    ['from=1&to=2', 400, 'MISSING_PARAMETER'],
    ['from=-1&to=2&interval=HOUR', 400, 'INVALID_TIME_RANGE'],
    ['from=1.5&to=2&interval=HOUR', 400, 'INVALID_TIME_RANGE'],
    ['from=20&to=10&interval=HOUR', 400, 'INVALID_TIME_RANGE'],
    ['from=0&to=100000000&interval=FIVEMIN', 400, 'INVALID_TIME_RANGE'],
    ['from=1&to=2&interval=MINUTE', 400, 'INVALID_INTERVAL'],
    ['from=1&to=2&interval=hour', 400, 'INVALID_INTERVAL'],
    ['from=1&from=2&to=3&interval=HOUR', 400, 'VALIDATION_FAILED'],
  ])('answers ?%s with %i %s', async (query, status, code) => {
    expect(await get(`/tokens/prices/0.0.1002?${query}`)).toMatchObject({ status, body: { code } });
  });

  it('answers 404 TOKEN_NOT_FOUND for an unknown token', async () => {
    expect(await get('/tokens/prices/0.0.9?from=1&to=2&interval=HOUR')).toMatchObject({
      status: 404,
      body: { code: 'TOKEN_NOT_FOUND' },
    });
  });
});

describe('GET /tokens/prices/latest/:tokenId', () => {
  it('answers, in a list of one, the candle that holds the last fill of the token', async () => {
    await fillBookOne();
    harness.clock.advance(3 * HOUR_S * 1_000);
    const latest = await get<Record<string, unknown>[]>('/tokens/prices/latest/0.0.1002?interval=HOUR');
    const history = await get<unknown[]>(`/tokens/prices/0.0.1002?from=${START / 1_000}&to=${START / 1_000}&interval=HOUR`);
    expect(latest.status).toBe(200);
    expect(latest.body).toHaveLength(1);
    expect({ ...latest.body[0], timestampSeconds: 0 }).toEqual({ ...(history.body[0] as object), timestampSeconds: 0 });
    expect(latest.body[0]?.timestampSeconds).toBe(START / 1_000 + HOUR_S);
    const fiveMinutes = await get<Record<string, unknown>[]>('/tokens/prices/latest/0.0.1002');
    expect(fiveMinutes.body[0]?.startTimestampSeconds).toBe(START / 1_000);
  });

  it('answers [] for a token that never traded, 404 for an unknown one and 400 for a bad interval', async () => {
    expect(await get('/tokens/prices/latest/0.0.1003')).toMatchObject({ status: 200, body: [] });
    expect(await get('/tokens/prices/latest/0.0.4242')).toMatchObject({ status: 404, body: { code: 'TOKEN_NOT_FOUND' } });
    expect(await get('/tokens/prices/latest/0.0.1003?interval=YEAR')).toMatchObject({
      status: 400,
      body: { code: 'INVALID_INTERVAL' },
    });
  });
});

describe('GET /tokens/ohlcv/latest', () => {
  it('answers the latest candle of every token that traded, and nothing for the others', async () => {
    expect(await get('/tokens/ohlcv/latest?interval=HOUR')).toMatchObject({ status: 200, body: [] });
    await fillBookOne();
    const { body } = await get<{ tokenId: string }[]>('/tokens/ohlcv/latest?interval=HOUR');
    expect(body.map((candle) => candle.tokenId)).toEqual(['0.0.1001', '0.0.1002']);
    const usdc = await get<unknown[]>('/tokens/prices/latest/0.0.1002?interval=HOUR');
    expect(body[1]).toEqual(usdc.body[0]);
    expect(await get('/tokens/ohlcv/latest?interval=MINUTE')).toMatchObject({ status: 400, body: { code: 'INVALID_INTERVAL' } });
  });
});
