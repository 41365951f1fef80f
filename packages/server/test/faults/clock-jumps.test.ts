import { BUY, SELL } from '@dex/core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dataGet,
  type Harness,
  issueApiKey,
  quotaHeaders,
  runOperatorOn,
  startHarness,
  Trader,
  until,
} from '../../src/test-support/harness.js';

/**
 * Fault suite: the service's injected clock jumps forward an hour and steps back a minute, as a
 * host whose clock is corrected would. Each test tells the story of one jump; bound: each test at
 * most 30 s (the file takes a few seconds), the expiry sweep is waited for at most 5 s.
 */
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;
const MINUTE = 60_000;

async function statusOf(trader: Trader, id: number): Promise<string | undefined> {
  const reply = await trader.request<{ orders: { id: number; status: string }[] }>('GET', '/orders?limit=500');
  return reply.body.orders.find((order) => Number(order.id) === id)?.status;
}

async function challenge(host: Harness, accountId: string): Promise<string> {
  const reply = await host.app.inject({ method: 'POST', url: '/auth/challenge', payload: { accountId } });
  return (reply.json() as { message: string }).message;
}

describe('the clock jumps forward an hour', () => {
  it('expires the orders, tokens and login challenges whose time passed, and nothing else', async () => {
    h = await startHarness({ JWT_TTL_SECONDS: '1800' });
    const host = h;
    const maker = await Trader.secp256k1(host);
    const now = () => Math.floor(host.clock.now() / 1000);
    const soon = await maker.limit(1, SELL, 25_000, 10, { deadline: String(now() + 30 * 60) });
    const later = await maker.limit(1, SELL, 25_100, 10, { deadline: String(now() + 2 * 60 * 60) });
    // An order built before the jump whose deadline the jump passes.
    const [stale] = await maker.build([maker.limitRequest(1, SELL, 25_200, 10, { deadline: String(now() + 10 * 60) })]);
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(host, wallet.address);
    const staleToken = maker.token;

    host.clock.advance(HOUR);

    // The token (30 min TTL) is refused; so is the answer to the challenge opened before.
    expect(await maker.request('GET', '/orders')).toMatchObject({ status: 401, body: { code: 'INVALID_TOKEN' } });
    const answer = { accountId: wallet.address, signature: await wallet.signMessage({ message }) };
    expect((await host.app.inject({ method: 'POST', url: '/auth/verify', payload: answer })).statusCode).toBe(401);
    // The sweep (every second, on the injected clock) expires the order whose deadline passed.
    await maker.login();
    expect(maker.token).not.toBe(staleToken);
    await until(async () => ((await statusOf(maker, soon.id)) === 'EXPIRED' ? true : undefined), 'the sweep', 5_000);
    expect(await statusOf(maker, later.id)).toBe('ACTIVE');
    const depth = (await host.app.inject({ method: 'GET', url: '/depth/1' })).json() as { asks: string[][] };
    expect(depth.asks).toEqual([['0.251', '1']]);
    // The order built before the jump is now past its deadline: refused, not placed.
    if (stale === undefined) throw new Error('nothing built');
    const saved = await maker.save([stale]);
    expect(saved.status).toBe(400);
    expect(saved.body).toMatchObject({ code: 'ORDER_DEADLINE_TOO_SOON' });
    // What did not expire still trades.
    const taker = await Trader.secp256k1(host);
    const bid = await taker.limit(1, BUY, 25_100, 10);
    expect(bid.status).toBe('FILLED');
    expect(await statusOf(maker, later.id)).toBe('FILLED');
  });
});

describe('the clock steps back a minute', () => {
  it('keeps tokens, deadlines, nonces, trades and candles whole', async () => {
    h = await startHarness();
    const host = h;
    const maker = await Trader.secp256k1(host);
    const taker = await Trader.secp256k1(host);
    const deadline = Math.floor(host.clock.now() / 1000) + 90;
    const ask = await maker.limit(1, SELL, 25_000, 40, { deadline: String(deadline) });
    await taker.limit(1, BUY, 25_000, 8);
    // Built (nonce issued) before the step back, saved after it.
    const [built] = await taker.build([taker.limitRequest(1, BUY, 25_000, 6)]);
    const firstTradeAt = host.clock.now();

    host.clock.rewind(MINUTE);

    // A token issued a minute "in the future" is still valid: the service's own clock moved.
    expect((await maker.request('GET', '/orders')).status).toBe(200);
    expect((await taker.request('GET', '/orders')).status).toBe(200);
    // The order keeps its deadline: the sweep neither expires it early nor moves it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await statusOf(maker, ask.id)).toBe('PARTIALLY_FILLED');
    const [stored] = await host.services.store.orders.byHashes([ask.orderHash]);
    expect(stored?.deadline).toBe(deadline);
    // The order built before the step back (nonce issued, the longest deadline) still saves, and trades.
    if (built === undefined) throw new Error('nothing built');
    const resaved = await taker.save([built]);
    expect(resaved.status).toBe(200);
    // A fresh login and a fresh build work too.
    await taker.login();
    await taker.limit(1, BUY, 25_000, 4);

    // The tape holds the three trades in id order, the later ones stamped with the earlier time.
    const tape = (await host.app.inject({ method: 'GET', url: '/trades/1' })).json() as { trades: { id: string }[] };
    expect(tape.trades).toHaveLength(3);
    const trades = (await host.services.store.trades.page(1, 'asc', 0, 10)).trades;
    expect(trades.map((trade) => trade.id)).toEqual([...trades.map((trade) => trade.id)].sort((a, b) => a - b));
    expect(trades.map((trade) => trade.executedAt - firstTradeAt)).toEqual([0, -MINUTE, -MINUTE]);
    // Candles fold each trade into the bucket of its own time: counts and volumes add up.
    const candles = await host.services.store.candles.range(1, 0, Number.MAX_SAFE_INTEGER);
    expect(candles.reduce((sum, candle) => sum + candle.tradeCount, 0)).toBe(3);
    expect(candles.reduce((sum, candle) => sum + candle.baseVolume, 0n)).toBe(18n * 10_000_000n);
    for (const candle of candles) expect(candle.lowTicks).toBeLessThanOrEqual(candle.highTicks);
    // The order still expires at its own deadline once the clock gets there.
    host.clock.time = deadline * 1000;
    expect(await host.services.desk.expireDue()).toBe(1);
    expect(await statusOf(maker, ask.id)).toBe('EXPIRED');
  });
});

describe("the clock crosses a data API key's month", () => {
  it('resets the quota in the new month, and stepping back neither resets nor double-counts', async () => {
    h = await startHarness();
    const host = h;
    const novemberEnd = Date.UTC(2026, 11, 1);
    const decemberEnd = Date.UTC(2027, 0, 1);
    host.clock.time = novemberEnd - 30_000;
    const { id, key } = await issueApiKey(host, 2);
    await dataGet(host, '/tokens', key);
    await dataGet(host, '/tokens', key);
    expect((await dataGet(host, '/tokens', key)).status).toBe(429);

    host.clock.advance(MINUTE);
    const december = await dataGet(host, '/tokens', key);
    expect(december.status).toBe(200);
    expect(quotaHeaders(december)).toMatchObject({ remaining: 1, reset: decemberEnd });

    // A minute back is November again: its quota is still used up, December's count is kept.
    host.clock.rewind(MINUTE);
    const november = await dataGet(host, '/tokens', key);
    expect(november.status).toBe(429);
    expect(quotaHeaders(november)).toMatchObject({ remaining: 0, reset: novemberEnd });

    host.clock.advance(MINUTE);
    const again = await dataGet(host, '/tokens', key);
    expect(quotaHeaders(again)).toMatchObject({ remaining: 0, reset: decemberEnd });
    expect((await dataGet(host, '/tokens', key)).status).toBe(429);
    const usage = JSON.parse((await runOperatorOn(host, 'apikey', 'usage', String(id), '--json')).out) as {
      months: { month: string; requests: number }[];
    };
    expect(usage.months).toEqual([
      { month: '2026-11', requests: 2 },
      { month: '2026-12', requests: 2 },
    ]);
  });
});
