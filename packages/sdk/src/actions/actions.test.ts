import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapSizeDown } from '../amounts.js';
import { type Client, createClient } from '../client.js';
import { InvalidParameterError } from '../errors.js';
import {
  DEVNET_ADDRESS,
  recordingFetch,
  seedBookOneDepth,
  startTestServer,
  type TestServer,
  tradeOnBookOne,
} from '../test-support/server.js';

const { WHBAR, USDC, SAUCE } = DEVNET_ADDRESS;

import { getBooks } from './get-books.js';
import { getCandles } from './get-candles.js';
import { getDepth } from './get-depth.js';
import { getExactInputQuote } from './get-exact-input-quote.js';
import { getExactOutputQuote } from './get-exact-output-quote.js';
import { getHealth } from './get-health.js';
import { getSignatureDomain } from './get-signature-domain.js';
import { getTrades } from './get-trades.js';

let api: TestServer;
let client: Client;
/** Time of the first fill; the second taker fills one second later. */
let firstFill: number;

/**
 * Book 1 (WHBAR/USDC, tick 0.00001, size step 0.1 WHBAR): asks 2 @ 0.25 and 3 @ 0.251, bid 5 @ 0.249;
 * then takers buy 0.5, then 2.5 (1.5 @ 0.25 and 1 @ 0.251). Left: ask 2 @ 0.251, bid 5 @ 0.249.
 */
async function seed(): Promise<void> {
  await seedBookOneDepth(api.server);
  firstFill = Date.now();
  await tradeOnBookOne(api.server);
}

beforeAll(async () => {
  api = await startTestServer();
  client = createClient({ baseUrl: api.url });
  await seed();
});

afterAll(async () => {
  await api.close();
});

describe('getBooks', () => {
  it('lists the seeded books with every field, priced from real fills', async () => {
    const result = await getBooks(client);
    expect(result).toMatchObject({ total: 4, page: 1, limit: 100 });
    expect(result.orderbooks.map((book) => book.id)).toEqual([1, 2, 3, 4]);
    const [book] = result.orderbooks;
    expect(book).toEqual({
      id: 1,
      baseTokenId: '0.0.1001',
      quoteTokenId: '0.0.1002',
      baseTokenEvmAddress: WHBAR,
      quoteTokenEvmAddress: USDC,
      status: 'OPEN',
      isAMMEnabled: 1,
      isMarketHalted: 0,
      baseTokenSymbol: 'WHBAR',
      quoteTokenSymbol: 'USDC',
      baseTokenDecimals: 8,
      quoteTokenDecimals: 6,
      tickStep: '0.00001',
      sizeStep: '0.1',
      // Raw units of WHBAR (8 decimals) and USDC (6), as the live API sends them.
      lotSize: '10000000',
      minNotional: '100000',
      quotePrice: '0.251',
      quotePrice24hPct: '0.4000',
      quotePrice24hHigh: '0.251',
      quotePrice24hLow: '0.25',
      baseVol24h: '3',
      quoteVol24h: '0.751',
      takerFeePips: 1000,
      makerFeePips: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('sends page and limit and returns that page', async () => {
    const recorder = recordingFetch();
    const paged = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    const result = await getBooks(paged, { page: 2, limit: 2 });
    expect(recorder.urls).toEqual([`${api.url}/books?page=2&limit=2`]);
    expect(result).toMatchObject({ total: 4, page: 2, limit: 2 });
    expect(result.orderbooks.map((book) => book.id)).toEqual([3, 4]);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the page %s before sending', async (page) => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    const error = await getBooks(counted, { page }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error).toMatchObject({ parameter: 'page' });
    expect(recorder.urls).toEqual([]);
  });

  it('gives book items that the grid helpers accept', async () => {
    const [book] = (await getBooks(client)).orderbooks;
    expect(book).toBeDefined();
    if (book !== undefined) expect(snapSizeDown(book, 305_000_000n)).toBe(300_000_000n);
  });
});

describe('getDepth', () => {
  it('returns the snapshot with human-readable levels best first and the last update id', async () => {
    const depth = await getDepth(client, { orderbookId: 1 });
    expect(depth).toEqual({
      orderbookId: '1',
      timestamp: expect.any(Number),
      baseTokenId: '0.0.1001',
      quoteTokenId: '0.0.1002',
      bestBidQuote: '0.249',
      bestAskQuote: '0.251',
      spreadPercent: '0.8000',
      bids: [['0.249', '5']],
      asks: [['0.251', '2']],
      lastUpdateId: api.server.services.engines.engine(1)?.depth().lastUpdateId,
    });
    expect(depth.lastUpdateId).toBeGreaterThan(0);
  });

  it('accepts the book id as a string', async () => {
    const depth = await getDepth(client, { orderbookId: '2' });
    expect(depth).toMatchObject({ orderbookId: '2', bestBidQuote: null, bestAskQuote: null, bids: [], asks: [] });
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53])('refuses the book id %s before sending', async (orderbookId) => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    await expect(getDepth(counted, { orderbookId })).rejects.toMatchObject({
      name: 'InvalidParameterError',
      parameter: 'orderbookId',
    });
    expect(recorder.urls).toEqual([]);
  });
});

describe('getTrades', () => {
  it('returns the tape newest first with the RecentTradesResult shape', async () => {
    const result = await getTrades(client, { orderbookId: 1 });
    expect(result).toEqual({
      orderbookId: '1',
      timestamp: expect.any(Number),
      trades: [
        { tradeId: 3, timestamp: expect.any(Number), price: '0.251', amountBase: '1', direction: 'buy', transactionHash: '' },
        { tradeId: 2, timestamp: expect.any(Number), price: '0.25', amountBase: '1.5', direction: 'buy', transactionHash: '' },
        { tradeId: 1, timestamp: expect.any(Number), price: '0.25', amountBase: '0.5', direction: 'buy', transactionHash: '' },
      ],
      total: 3,
      page: 1,
      limit: 10,
    });
    const [latest, middle, first] = result.trades.map((trade) => trade.timestamp);
    expect(first).toBeGreaterThanOrEqual(firstFill);
    expect(middle).toBeGreaterThanOrEqual(first as number);
    expect(latest).toBe(middle);
  });

  it('sends sort, page and limit', async () => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    const result = await getTrades(counted, { orderbookId: 1, sort: 'asc', page: 2, limit: 2 });
    expect(recorder.urls).toEqual([`${api.url}/trades/1?sort=asc&page=2&limit=2`]);
    expect(result).toMatchObject({ page: 2, limit: 2, total: 3 });
    expect(result.trades.map((trade) => trade.amountBase)).toEqual(['1']);
  });

  it('refuses a limit of zero before sending', async () => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    await expect(getTrades(counted, { orderbookId: 1, limit: 0 })).rejects.toMatchObject({ parameter: 'limit' });
    expect(recorder.urls).toEqual([]);
  });
});

describe('getCandles', () => {
  it('folds the tape into candles: prices as the tape prints them, raw volumes, oldest first', async () => {
    const result = await getCandles(client, { orderbookId: 1, interval: 'DAY' });
    expect(result).toMatchObject({ orderbookId: '1', interval: 'DAY' });
    // The three fills are a second apart; only a run across midnight UTC splits them into two days.
    const { candles } = result;
    expect(candles.length === 1 || candles.length === 2).toBe(true);
    const day = 24 * 60 * 60;
    expect(candles[0]?.startTimestampSeconds).toBe(Math.floor(firstFill / 1000 / day) * day);
    expect(candles[0]?.open).toBe('0.25');
    expect(candles.at(-1)?.close).toBe('0.251');
    expect(new Set(candles.flatMap((candle) => [candle.high, candle.low]))).toEqual(new Set(['0.25', '0.251']));
    const sum = (pick: (candle: (typeof candles)[number]) => string | number) =>
      candles.reduce((total, candle) => total + BigInt(pick(candle)), 0n);
    // 0.5 + 1.5 + 1 WHBAR (8 decimals); 0.125 + 0.375 + 0.251 USDC (6 decimals)
    expect([sum((candle) => candle.baseVolume), sum((candle) => candle.quoteVolume), sum((candle) => candle.tradeCount)]).toEqual(
      [300_000_000n, 751_000n, 3n],
    );
  });

  it('sends interval, and from and to when given', async () => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    const to = Math.floor(Date.now() / 1000);
    const windowed = await getCandles(counted, { orderbookId: '1', interval: 'HOUR', from: to - 3600, to });
    await getCandles(counted, { orderbookId: 1, interval: 'FIVEMIN' });
    expect(recorder.urls).toEqual([
      `${api.url}/books/1/candles?interval=HOUR&from=${to - 3600}&to=${to}`,
      `${api.url}/books/1/candles?interval=FIVEMIN`,
    ]);
    expect(windowed.candles.reduce((total, candle) => total + candle.tradeCount, 0)).toBe(3);
  });

  it.each([
    ['an interval the route does not offer', { interval: 'MINUTE' as 'HOUR' }, 'interval'],
    ['a negative from', { interval: 'HOUR' as const, from: -1 }, 'from'],
    ['a to with a fraction', { interval: 'HOUR' as const, to: 1.5 }, 'to'],
    ['a from after to', { interval: 'HOUR' as const, from: 2_000, to: 1_000 }, 'from'],
  ])('refuses %s before sending', async (_name, parameters, parameter) => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    const failure = getCandles(counted, { orderbookId: 1, ...parameters });
    await expect(failure).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(failure).rejects.toMatchObject({ parameter });
    expect(recorder.urls).toEqual([]);
  });

  it('surfaces an unknown book and a window wider than 1000 candles as the server answers them', async () => {
    await expect(getCandles(client, { orderbookId: 42, interval: 'HOUR' })).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
      code: 'ORDERBOOK_NOT_FOUND',
    });
    await expect(getCandles(client, { orderbookId: 1, interval: 'FIVEMIN', from: 0 })).rejects.toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'INVALID_TIME_RANGE',
    });
  });
});

describe('getExactInputQuote', () => {
  it('quotes selling base into the bids, with raw amounts kept as strings', async () => {
    const quote = await getExactInputQuote(client, { orderbookId: 1, inputToken: WHBAR, inputAmount: '305000000' });
    expect(quote).toEqual({
      outputToken: USDC,
      snappedInputAmount: '300000000',
      consumedInputAmount: '300000000',
      expectedOutputAmount: '747000',
      suggestedOutputAmount: '743265',
      slippageBps: 50,
      fillable: true,
    });
  });

  it('sends a bigint amount as its decimal string', async () => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    const quote = await getExactInputQuote(counted, { orderbookId: 1, inputToken: WHBAR, inputAmount: 305_000_000n });
    expect(recorder.urls).toEqual([`${api.url}/books/1/quote/exact-input?inputToken=${WHBAR}&inputAmount=305000000`]);
    expect(quote.snappedInputAmount).toBe('300000000');
  });

  it('passes amounts beyond 2^53 through without losing a digit', async () => {
    const huge = '123456789012345678901234567890';
    const quote = await getExactInputQuote(client, { orderbookId: 1, inputToken: USDC, inputAmount: huge });
    expect(quote).toMatchObject({
      outputToken: WHBAR,
      fillable: true,
      consumedInputAmount: '502000',
      expectedOutputAmount: '200000000',
    });
    expect(BigInt(quote.snappedInputAmount)).toBeLessThanOrEqual(BigInt(huge));
    expect(typeof quote.snappedInputAmount).toBe('string');
  });

  it.each([
    ['an exponent', '1e8'],
    ['a minus sign', '-5'],
    ['a plus sign', '+5'],
    ['a fraction', '1.5'],
    ['a hex prefix', '0x10'],
    ['leading zeros', '0100'],
    ['surrounding spaces', ' 100 '],
    ['nothing in it', ''],
    ['the value zero', '0'],
    ['more than 78 digits', '1'.repeat(79)],
  ])('refuses an inputAmount with %s before sending', async (_name, inputAmount) => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    const error = await getExactInputQuote(counted, { orderbookId: 1, inputToken: WHBAR, inputAmount }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error).toMatchObject({ parameter: 'inputAmount' });
    expect(recorder.urls).toEqual([]);
  });

  it.each([
    ['a negative bigint', -1n],
    ['a zero bigint', 0n],
    ['a bigint beyond uint256', 2n ** 256n],
    ['a JavaScript number', 100 as unknown as string],
  ])('refuses an inputAmount that is %s before sending', async (_name, inputAmount) => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    await expect(getExactInputQuote(counted, { orderbookId: 1, inputToken: WHBAR, inputAmount })).rejects.toBeInstanceOf(
      InvalidParameterError,
    );
    expect(recorder.urls).toEqual([]);
  });

  it('surfaces a token of another book as the server 400', async () => {
    await expect(getExactInputQuote(client, { orderbookId: 1, inputToken: SAUCE, inputAmount: 1n })).rejects.toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'TOKEN_NOT_IN_BOOK',
    });
  });
});

describe('getExactOutputQuote', () => {
  it('quotes buying base from the asks, with raw amounts kept as strings', async () => {
    const quote = await getExactOutputQuote(client, { orderbookId: 1, outputToken: WHBAR, outputAmount: 150_000_000n });
    expect(quote).toEqual({
      inputToken: USDC,
      requestedOutputAmount: '150000000',
      snappedOutputAmount: '150000000',
      expectedInputAmount: '376500',
      suggestedInputAmount: '378383',
      slippageBps: 50,
      fillable: true,
    });
  });

  it('says not fillable when the book is shallower than the output', async () => {
    const quote = await getExactOutputQuote(client, { orderbookId: 1, outputToken: WHBAR, outputAmount: '600000000' });
    expect(quote.fillable).toBe(false);
  });

  it.each([
    ['an exponent', '1e8'],
    ['a decimal point', '2.0'],
    ['the value zero', '0'],
    ['a negative bigint', -5n],
  ])('refuses an outputAmount with %s before sending', async (_name, outputAmount) => {
    const recorder = recordingFetch();
    const counted = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    await expect(getExactOutputQuote(counted, { orderbookId: 1, outputToken: WHBAR, outputAmount })).rejects.toMatchObject({
      name: 'InvalidParameterError',
      parameter: 'outputAmount',
    });
    expect(recorder.urls).toEqual([]);
  });
});

describe('getSignatureDomain', () => {
  it('returns the EIP-712 domain of the devnet', async () => {
    expect(await getSignatureDomain(client)).toEqual({
      name: 'PartialFillLimitOrderReactor',
      version: '1',
      chainId: 298,
      verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    });
  });
});

describe('getHealth', () => {
  it('reports the service up with its network and book count', async () => {
    expect(await getHealth(client)).toEqual({
      status: 'ok',
      network: 'devnet',
      time: expect.any(Number),
      uptimeSeconds: expect.any(Number),
      books: 4,
    });
  });
});
