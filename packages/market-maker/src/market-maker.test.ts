import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createClient,
  createDataClient,
  type DepthSnapshot,
  type FetchFn,
  getBooks,
  getDepth,
  getLatestTokenPrice,
  getOrders,
  getTrades,
  limitOrderRequest,
  type OrderbookItem,
  placeOrders,
  snapPrice,
  snapSize,
} from '@dex/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarketMaker } from './market-maker.js';
import type { MarketMakerOptions } from './options.js';
import {
  type BotServer,
  eventually,
  issueApiKey,
  quickBotOptions,
  recordingLogger,
  startBotServer,
  TEST_REFERENCE_PRICES,
} from './test-support/bot-server.js';

let h: BotServer;
const bots: MarketMaker[] = [];

beforeEach(async () => {
  h = await startBotServer();
});

afterEach(async () => {
  await Promise.all(bots.splice(0).map((bot) => bot.stop()));
  await h.harness.close();
});

/** A bot on the test server with quick refreshes; `options` override. */
function startBot(options: Partial<MarketMakerOptions> = {}): MarketMaker {
  const bot = new MarketMaker(quickBotOptions(h, options));
  bots.push(bot);
  bot.start();
  return bot;
}

const publicClient = () => createClient({ baseUrl: h.harness.url });

/**
 * The seeded books the bot quotes: not the native-coin book (HBAR/USDC), whose orders are signed
 * for the wrapped token, which the SDK's check of a built order does not accept for the zero address.
 */
async function seededBooks(): Promise<OrderbookItem[]> {
  const { orderbooks } = await getBooks(publicClient());
  return orderbooks.filter((book) => BigInt(book.baseTokenEvmAddress) !== 0n);
}

/** Waits until `bot` has run `count` more refreshes. */
function cycles(bot: MarketMaker, count: number): Promise<number> {
  const target = bot.stats.cycles + count;
  return eventually(() => (bot.stats.cycles >= target ? bot.stats.cycles : undefined), `${count} refreshes`);
}

async function openOrderIds(account: 'maker' | 'taker'): Promise<number[]> {
  const client = createClient({ baseUrl: h.harness.url, signer: h[account] });
  return (await getOrders(client, { status: ['ACTIVE', 'PARTIALLY_FILLED'], limit: 500 })).orders.map((order) => order.id);
}

const depthOf = (orderbookId: number) => getDepth(publicClient(), { orderbookId });

function hasBothSides(depth: DepthSnapshot): boolean {
  return depth.bids.length > 0 && depth.asks.length > 0;
}

/** An HTTP server on loopback that hangs up on every request: requests to it fail on the network. */
async function hangingUp(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request) => request.socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('market maker on a real server (no settlement chain)', () => {
  it('quotes bids and asks on every seeded book around its mid, every price and size on the grid', async () => {
    const bot = startBot({ levels: 4 });
    await cycles(bot, 3);
    const books = await seededBooks();
    expect(books.map((book) => book.id)).toEqual([1, 2, 3]);
    const mids = bot.mids();
    for (const book of books) {
      const depth = await depthOf(book.id);
      expect(hasBothSides(depth)).toBe(true);
      expect(depth.bids.length).toBeLessThanOrEqual(4);
      expect(depth.asks.length).toBeLessThanOrEqual(4);
      for (const [price, size] of [...depth.bids, ...depth.asks]) {
        expect(snapPrice(book, price)).toBe(price);
        expect(snapSize(book, size)).toBe(size);
        // limitOrderRequest refuses a size below the lot size or the minimum notional.
        expect(() => limitOrderRequest(book, { side: 'buy', price, size })).not.toThrow();
      }
      const mid = Number(mids.get(book.id));
      const bestBid = Number(depth.bids[0]?.[0]);
      const bestAsk = Number(depth.asks[0]?.[0]);
      expect(bestBid).toBeLessThan(mid);
      expect(bestAsk).toBeGreaterThan(mid);
      expect((bestAsk - bestBid) / mid).toBeLessThan(0.01);
    }
    // The starting mids agree across the books: SAUCE/WHBAR is SAUCE/USDC over WHBAR/USDC.
    const [whbarUsdc, sauceUsdc, sauceWhbar] = [1, 2, 3].map((id) => Number(mids.get(id)));
    expect(sauceWhbar).toBeCloseTo((sauceUsdc as number) / (whbarUsdc as number), 1);
  });

  it('takes liquidity from a second account: trades show on every tape, in the book stats and in the candles', async () => {
    const bot = startBot({ takeProbability: 1 });
    for (const orderbookId of [1, 2, 3]) {
      await eventually(async () => {
        const { total } = await getTrades(publicClient(), { orderbookId });
        return total >= 2 ? total : undefined;
      }, `trades on book ${orderbookId}`);
    }
    expect(bot.stats.takerFills).toBeGreaterThan(0);
    const { trades } = await getTrades(publicClient(), { orderbookId: 1, limit: 100 });
    // The taker alternates sides.
    expect(new Set(trades.map((trade) => trade.direction))).toEqual(new Set(['buy', 'sell']));
    await eventually(async () => {
      const books = await seededBooks();
      return books.every((book) => book.quotePrice !== null && Number(book.baseVol24h) > 0) ? books : undefined;
    }, 'last prices and volumes on /books');

    const { key } = await issueApiKey(h.harness, 1_000);
    const data = createDataClient({ baseUrl: `${h.harness.url}/data`, apiKey: key });
    for (const tokenId of ['0.0.1001', '0.0.1003']) {
      const { data: candles } = await getLatestTokenPrice(data, { tokenId });
      const candle = candles[0];
      expect(BigInt(candle?.volume ?? '0')).toBeGreaterThan(0n);
      const reference = Number(TEST_REFERENCE_PRICES[tokenId as keyof typeof TEST_REFERENCE_PRICES]);
      expect(candle?.closeUsd).toBeGreaterThan(reference * 0.8);
      expect(candle?.closeUsd).toBeLessThan(reference * 1.2);
    }
  });

  it('keeps its open orders bounded while the mid moves: stale quotes are cancelled', async () => {
    const levels = 3;
    // Large steps: most of the ladder is stale at every refresh.
    const bot = startBot({ levels, stepBps: 100, takeProbability: 0.5 });
    const seen: string[][] = [];
    for (let sample = 0; sample < 10; sample++) {
      await cycles(bot, 2);
      seen.push([...bot.mids().values()]);
      // A full ladder on three books, and at most as many again between a placement and its cancellation.
      expect((await openOrderIds('maker')).length).toBeLessThanOrEqual(2 * 3 * 2 * levels);
    }
    expect(bot.stats.placed).toBeGreaterThan(4 * 3 * 2 * levels);
    expect(bot.stats.cancelled).toBeGreaterThan(bot.stats.placed / 2);
    // The mid moved on every book, within its band (20 % by default).
    [0.25, 0.05, 0.2].forEach((start, book) => {
      const mids = seen.map((sample) => Number(sample[book]));
      expect(new Set(mids).size).toBeGreaterThan(3);
      for (const mid of mids) expect(Math.abs(mid / start - 1)).toBeLessThanOrEqual(0.2);
    });
  });

  it('stop() cancels every open order of both accounts and sends nothing afterwards', async () => {
    let requests = 0;
    const counting: FetchFn = (url, init) => {
      requests++;
      return globalThis.fetch(url, init);
    };
    const bot = startBot({ fetch: counting, takeProbability: 0.5 });
    await eventually(async () => ((await openOrderIds('maker')).length >= 6 ? true : undefined), 'quotes');
    await bot.stop();
    expect(await openOrderIds('maker')).toEqual([]);
    expect(await openOrderIds('taker')).toEqual([]);
    const after = requests;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toBe(after);
    for (const orderbookId of [1, 2, 3]) expect(hasBothSides(await depthOf(orderbookId))).toBe(false);
  });

  it('cancels what a previous run left open when it starts', async () => {
    const maker = createClient({ baseUrl: h.harness.url, signer: h.maker });
    const [book] = await seededBooks();
    if (book === undefined) throw new Error('no book');
    const leftover = await placeOrders(maker, {
      orders: [limitOrderRequest(book, { side: 'buy', price: '0.1', size: '5' })],
    });
    const bot = startBot();
    await cycles(bot, 2);
    const open = await openOrderIds('maker');
    expect(open.length).toBeGreaterThan(0);
    expect(open).not.toContain(leftover.orders[0]?.meta.id);
  });

  it('goes on quoting the other books while one is halted, and quotes it again once it resumes', async () => {
    const logger = recordingLogger();
    // The book list is read once: the halt shows as refused orders, not as a flag.
    const bot = startBot({ logger, levels: 3, stepBps: 200, booksRefreshMs: 3_600_000 });
    await cycles(bot, 2);
    await h.operator('book', 'halt', '1');
    await eventually(
      () => logger.lines.find((line) => line.level === 'warn' && line.fields.code === 'MARKET_HALTED' && line.fields.book === 1),
      'a MARKET_HALTED warning for book 1',
    );
    const placedWhileHalted = bot.stats.placed;
    const otherDepth = JSON.stringify(await depthOf(2));
    await cycles(bot, 3);
    expect(bot.stats.placed).toBeGreaterThan(placedWhileHalted);
    expect(JSON.stringify(await depthOf(2))).not.toBe(otherDepth);

    await h.operator('book', 'resume', '1');
    await eventually(async () => (hasBothSides(await depthOf(1)) ? true : undefined), 'quotes on book 1 again');
    const errors = bot.stats.errors;
    await cycles(bot, 3);
    expect(bot.stats.errors).toBe(errors);
  });

  it('logs network failures spaced by its back-off while no server answers, and stops cleanly', async () => {
    const logger = recordingLogger();
    const nowhere = await hangingUp();
    try {
      const bot = startBot({ logger, baseUrl: nowhere.url });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await bot.stop();
      expect(bot.stats.cycles).toBe(0);
    } finally {
      await nowhere.close();
    }
    const failures = logger.lines.filter((line) => line.level === 'warn' && line.fields.kind === 'NetworkError');
    // Doubling from 50 ms to at most 200 ms: about seven failures in a second, not twenty.
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(failures.length).toBeLessThan(12);
  });

  it('quotes again after the server restarts under it', async () => {
    const bot = startBot();
    await cycles(bot, 2);
    await h.harness.restart();
    const before = bot.stats.placed;
    await cycles(bot, 3);
    expect(bot.stats.placed).toBeGreaterThan(before);
    for (const orderbookId of [1, 2, 3]) expect(hasBothSides(await depthOf(orderbookId))).toBe(true);
  });
});

/** The account's order budget in the test below: 20 orders (built or saved) per 10 s. */
const RATE_LIMIT = { orders: 20, seconds: 10 };
/**
 * How long quoting all three books may take under that budget: a book's 3 levels a side cost 6
 * builds and 6 saves, so the three cost 36, nearly two windows of the limit; twice that, since the
 * bot stops a round at each 429 and waits as long as the server asks.
 */
const QUOTE_ALL_MS = 2 * Math.ceil((3 * 12) / RATE_LIMIT.orders) * RATE_LIMIT.seconds * 1_000;

describe("market maker under the order routes' rate limits", () => {
  it('waits as a 429 asks and keeps quoting every book', { timeout: QUOTE_ALL_MS + 30_000 }, async () => {
    await h.harness.close();
    h = await startBotServer({
      ORDER_RATE_LIMIT: 'true',
      ORDER_RATE_LIMIT_ACCOUNT: `${RATE_LIMIT.orders}/${RATE_LIMIT.seconds}`,
    });
    const logger = recordingLogger();
    startBot({ logger, levels: 3, stepBps: 50 });
    await eventually(() => logger.lines.find((line) => line.fields.status === 429), 'a 429');
    const deadline = Date.now() + QUOTE_ALL_MS;
    for (const orderbookId of [1, 2, 3]) {
      await eventually(
        async () => (hasBothSides(await depthOf(orderbookId)) ? true : undefined),
        `quotes on book ${orderbookId}`,
        Math.max(1_000, deadline - Date.now()),
      );
    }
  });
});
