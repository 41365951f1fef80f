import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader } from '../../../test-support/harness.js';

let harness: Harness;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** The harness clock's start: Sunday 2026-11-22 12:00 UTC. */
const NOON = Date.UTC(2026, 10, 22, 12);
const seconds = (ms: number) => ms / 1_000;

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await harness.app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

/** One trade of `steps` tenths of a WHBAR at `priceTicks` on the (empty) book 1, at `atMs`. */
async function cross(atMs: number, priceTicks: number, steps: number): Promise<void> {
  harness.clock.advance(atMs - harness.clock.now());
  await (await Trader.secp256k1(harness)).limit(1, SELL, priceTicks, steps);
  await (await Trader.secp256k1(harness)).limit(1, BUY, priceTicks, steps);
}

/**
 * Four trades in the 12:00 hour (0.5 @ 0.25 at 12:00, 2 @ 0.251 at 12:10, 1 @ 0.248 at 12:40,
 * 1 @ 0.249 at 12:55), none at 13:00, one (3 @ 0.25) at 14:05; the clock stays at 14:05.
 */
async function tradeTwoHours(): Promise<void> {
  await cross(NOON, 25_000, 5);
  await cross(NOON + 10 * MINUTE_MS, 25_100, 20);
  await cross(NOON + 40 * MINUTE_MS, 24_800, 10);
  await cross(NOON + 55 * MINUTE_MS, 24_900, 10);
  await cross(NOON + 2 * HOUR_MS + 5 * MINUTE_MS, 25_000, 30);
}

const NOON_HOUR = {
  startTimestampSeconds: seconds(NOON),
  open: '0.25',
  high: '0.251',
  low: '0.248',
  close: '0.249',
  // 0.5 + 2 + 1 + 1 WHBAR (8 decimals); 0.125 + 0.502 + 0.248 + 0.249 USDC (6 decimals)
  baseVolume: '450000000',
  quoteVolume: '1124000',
  tradeCount: 4,
};

const TWO_PM_HOUR = {
  startTimestampSeconds: seconds(NOON + 2 * HOUR_MS),
  open: '0.25',
  high: '0.25',
  low: '0.25',
  close: '0.25',
  baseVolume: '300000000',
  quoteVolume: '750000',
  tradeCount: 1,
};

describe('GET /books/:orderbookId/candles', () => {
  beforeEach(async () => {
    harness = await startHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  describe('with trades in two hours', () => {
    beforeEach(tradeTwoHours);

    it('folds the 5-minute candles of each hour into one, oldest first, leaving out the hour without trades', async () => {
      const { status, body } = await get('/books/1/candles?interval=HOUR');
      expect(status).toBe(200);
      expect(body).toEqual({ orderbookId: '1', interval: 'HOUR', candles: [NOON_HOUR, TWO_PM_HOUR] });
    });

    it('gives one candle per 5-minute window that traded', async () => {
      const { body } = await get('/books/1/candles?interval=FIVEMIN');
      const candles = body.candles as { startTimestampSeconds: number; open: string; close: string; tradeCount: number }[];
      expect(candles.map((candle) => [candle.startTimestampSeconds, candle.open, candle.close, candle.tradeCount])).toEqual([
        [seconds(NOON), '0.25', '0.25', 1],
        [seconds(NOON + 10 * MINUTE_MS), '0.251', '0.251', 1],
        [seconds(NOON + 40 * MINUTE_MS), '0.248', '0.248', 1],
        [seconds(NOON + 55 * MINUTE_MS), '0.249', '0.249', 1],
        [seconds(NOON + 125 * MINUTE_MS), '0.25', '0.25', 1],
      ]);
    });

    it('folds a day, and a week from Monday 00:00 UTC', async () => {
      const whole = { open: '0.25', high: '0.251', low: '0.248', close: '0.25', baseVolume: '750000000', quoteVolume: '1874000' };
      const day = (await get('/books/1/candles?interval=DAY')).body;
      expect(day).toEqual({
        orderbookId: '1',
        interval: 'DAY',
        candles: [{ startTimestampSeconds: seconds(Date.UTC(2026, 10, 22)), ...whole, tradeCount: 5 }],
      });
      const week = (await get('/books/1/candles?interval=WEEK')).body;
      expect(week.candles).toEqual([{ startTimestampSeconds: seconds(Date.UTC(2026, 10, 16)), ...whole, tradeCount: 5 }]);
    });

    it('prints prices exactly as the trade tape prints them', async () => {
      const tape = ((await get('/trades/1?sort=asc')).body.trades as { price: string }[]).map((trade) => trade.price);
      const candles = (await get('/books/1/candles?interval=FIVEMIN')).body.candles as { open: string }[];
      expect(candles.map((candle) => candle.open)).toEqual(tape);
    });

    it('takes the buckets that overlap from..to', async () => {
      const at = (ms: number) => seconds(ms);
      const window = (query: string) => get(`/books/1/candles?interval=HOUR&${query}`);
      expect((await window(`from=${at(NOON + 30 * MINUTE_MS)}&to=${at(NOON + 30 * MINUTE_MS)}`)).body.candles).toEqual([
        NOON_HOUR,
      ]);
      expect((await window(`from=${at(NOON + HOUR_MS)}`)).body.candles).toEqual([TWO_PM_HOUR]);
      expect((await window(`to=${at(NOON + 2 * HOUR_MS - 1_000)}`)).body.candles).toEqual([NOON_HOUR]);
      expect((await window(`from=${at(NOON + HOUR_MS)}&to=${at(NOON + HOUR_MS)}`)).body.candles).toEqual([]);
      expect((await window('from=&to=')).body.candles).toEqual([NOON_HOUR, TWO_PM_HOUR]);
    });

    it('defaults to the 500 buckets up to now, the running one included', async () => {
      harness.clock.advance(498 * HOUR_MS);
      expect((await get('/books/1/candles?interval=HOUR')).body.candles).toEqual([TWO_PM_HOUR]);
      harness.clock.advance(HOUR_MS);
      expect((await get('/books/1/candles?interval=HOUR')).body.candles).toEqual([TWO_PM_HOUR]);
      harness.clock.advance(HOUR_MS);
      expect((await get('/books/1/candles?interval=HOUR')).body.candles).toEqual([]);
      expect((await get('/books/1/candles?interval=DAY')).body.candles).toHaveLength(1);
    });

    it('serves from a short-lived cache', async () => {
      const before = (await get('/books/1/candles?interval=HOUR')).body;
      await cross(harness.clock.now(), 25_000, 10);
      expect((await get('/books/1/candles?interval=HOUR')).body).toEqual(before);
      harness.clock.advance(harness.config.tradesCacheMs);
      const after = (await get('/books/1/candles?interval=HOUR')).body.candles as { tradeCount: number }[];
      expect(after.map((candle) => candle.tradeCount)).toEqual([4, 2]);
    });

    it('still answers for a closed book, whose history stays', async () => {
      await harness.services.store.books.update(1, { status: 'CLOSED' }, harness.clock.now());
      await harness.services.registry.load();
      harness.clock.advance(harness.config.tradesCacheMs);
      expect((await get('/books/1/candles?interval=HOUR')).body.candles).toEqual([NOON_HOUR, TWO_PM_HOUR]);
    });
  });

  it('answers an empty list for a book without trades', async () => {
    expect((await get('/books/2/candles?interval=FIVEMIN')).body).toEqual({ orderbookId: '2', interval: 'FIVEMIN', candles: [] });
  });

  it('answers windows of up to 1000 buckets and refuses wider ones', async () => {
    const from = seconds(NOON);
    expect((await get(`/books/1/candles?interval=FIVEMIN&from=${from}&to=${from + 999 * 300}`)).status).toBe(200);
    expect((await get(`/books/1/candles?interval=WEEK&from=${seconds(Date.UTC(2010, 0, 1))}&to=${seconds(NOON)}`)).status).toBe(
      200,
    );
    const wide = await get(`/books/1/candles?interval=FIVEMIN&from=${from}&to=${from + 1000 * 300}`);
    expect(wide).toEqual({
      status: 400,
      body: { error: 'from and to span more than 1000 intervals of FIVEMIN', code: 'INVALID_TIME_RANGE' },
    });
    expect((await get('/books/1/candles?interval=HOUR&from=0')).body.code).toBe('INVALID_TIME_RANGE');
  });

  it.each([
    ['no interval', '', 'MISSING_PARAMETER'],
    ['an empty interval', 'interval=', 'MISSING_PARAMETER'],
    ['an interval in lower case', 'interval=hour', 'INVALID_INTERVAL'],
    ['the MINUTE interval, which no candle route offers', 'interval=MINUTE', 'INVALID_INTERVAL'],
    ['an unknown interval', 'interval=MONTH', 'INVALID_INTERVAL'],
    ['a repeated interval', 'interval=HOUR&interval=DAY', 'VALIDATION_FAILED'],
    ['a from with a fraction', 'interval=HOUR&from=1.5', 'INVALID_TIME_RANGE'],
    ['a negative from', 'interval=HOUR&from=-1', 'INVALID_TIME_RANGE'],
    ['to with an exponent', 'interval=HOUR&to=1e9', 'INVALID_TIME_RANGE'],
    ['to in words', 'interval=HOUR&to=now', 'INVALID_TIME_RANGE'],
    ['from after to', 'interval=HOUR&from=1800000000&to=1700000000', 'INVALID_TIME_RANGE'],
    ['a repeated from', 'interval=HOUR&from=1&from=2', 'VALIDATION_FAILED'],
  ])('answers 400 for %s', async (_name, query, code) => {
    const { status, body } = await get(`/books/1/candles?${query}`);
    expect(status).toBe(400);
    expect(body.code).toBe(code);
    expect(typeof body.error).toBe('string');
  });

  it.each(['99', '0', 'abc', '-1', '1e0'])('answers 404 for the unknown book %s', async (id) => {
    const { status, body } = await get(`/books/${id}/candles?interval=HOUR`);
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'Order book not found', code: 'ORDERBOOK_NOT_FOUND' });
  });

  it('needs no JWT, and reads none, like the trade tape', async () => {
    expect((await get('/books/1/candles?interval=HOUR')).status).toBe(200);
    expect((await get('/books/1/candles?interval=HOUR', { authorization: 'Bearer nonsense' })).status).toBe(200);
  });
});

describe('GET /books/:orderbookId/candles with open market data switched off', () => {
  beforeEach(async () => {
    harness = await startHarness({ OPEN_MARKET_DATA: 'false' });
  });
  afterEach(async () => {
    await harness.close();
  });

  it('is not mounted (404), even with a JWT, as the trade tape is not', async () => {
    const token = await harness.services.tokens.issue('0.0.5005');
    expect((await get('/books/1/candles?interval=HOUR')).status).toBe(404);
    expect((await get('/books/1/candles?interval=HOUR', { authorization: `Bearer ${token}` })).status).toBe(404);
  });
});
