import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEVNET_ADDRESS,
  type Harness,
  seedBookOneDepth,
  startHarness,
  Trader,
  tradeOnBookOne,
} from '../../../test-support/harness.js';

const { WHBAR, USDC, SAUCE } = DEVNET_ADDRESS;

let harness: Harness;

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await harness.app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.json() as Record<string, unknown>, headers: response.headers };
}

async function seedBook(): Promise<void> {
  await seedBookOneDepth(harness);
}

/** Trades at 0.25 then 0.251, and leaves the clock at the second one. */
async function trade(): Promise<void> {
  await tradeOnBookOne(harness, () => harness.clock.advance(1_000));
}

describe('public market data', () => {
  beforeEach(async () => {
    harness = await startHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  describe('GET /books', () => {
    it('lists every seeded book with every OrderbookItem field', async () => {
      const { status, body } = await get('/books');
      expect(status).toBe(200);
      expect(body).toMatchObject({ total: 4, page: 1, limit: 100 });
      const books = body.orderbooks as Record<string, unknown>[];
      expect(books.map((book) => book.id)).toEqual([1, 2, 3, 4]);
      expect(books[0]).toEqual({
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
        // Raw units: 0.1 WHBAR (8 decimals) and 0.1 USDC (6), as the live API sends them.
        lotSize: '10000000',
        minNotional: '100000',
        // Never traded: "0", and no change, as the live API answers.
        quotePrice: '0',
        quotePrice24hPct: null,
        quotePrice24hHigh: '0',
        quotePrice24hLow: '0',
        baseVol24h: '0',
        quoteVol24h: '0',
        takerFeePips: 1000,
        makerFeePips: 0,
        createdAt: new Date(harness.clock.now()).toISOString(),
        updatedAt: new Date(harness.clock.now()).toISOString(),
      });
    });

    it('reports the last price and 24-hour figures from real fills', async () => {
      await seedBook();
      await trade();
      harness.clock.advance(5_000);
      const books = (await get('/books')).body.orderbooks as Record<string, unknown>[];
      expect(books[0]).toMatchObject({
        quotePrice: '0.251',
        quotePrice24hPct: '0.4000',
        quotePrice24hHigh: '0.251',
        quotePrice24hLow: '0.25',
        // 0.5 WHBAR at 0.25 + 1.5 at 0.25 + 1 at 0.251 (the second taker sweeps two levels)
        baseVol24h: '3',
        quoteVol24h: '0.751',
      });
    });

    it('drops trades older than 24 hours from the window but keeps the last price', async () => {
      await seedBook();
      await trade();
      harness.clock.advance(25 * 60 * 60 * 1000);
      const books = (await get('/books')).body.orderbooks as Record<string, unknown>[];
      expect(books[0]).toMatchObject({ quotePrice: '0.251', quotePrice24hPct: null, baseVol24h: '0', quotePrice24hHigh: '0' });
    });

    it('pages the list', async () => {
      const { body } = await get('/books?page=2&limit=2');
      expect(body).toMatchObject({ total: 4, page: 2, limit: 2 });
      expect((body.orderbooks as { id: number }[]).map((book) => book.id)).toEqual([3, 4]);
    });

    it('shows halt and close at once after the operator changes them', async () => {
      await harness.services.store.books.update(2, { isHalted: true }, harness.clock.now());
      await harness.services.store.books.update(3, { status: 'CLOSED' }, harness.clock.now());
      await harness.services.registry.load();
      harness.clock.advance(2_000);
      const books = (await get('/books')).body.orderbooks as Record<string, unknown>[];
      expect(books.map((book) => [book.isMarketHalted, book.status])).toEqual([
        [0, 'OPEN'],
        [1, 'OPEN'],
        [0, 'CLOSED'],
        [0, 'OPEN'],
      ]);
    });
  });

  describe('GET /depth/:orderbookId', () => {
    it('returns human-readable levels best first with the last update id', async () => {
      await seedBook();
      const { status, body } = await get('/depth/1');
      expect(status).toBe(200);
      expect(body).toEqual({
        orderbookId: '1',
        timestamp: harness.clock.now(),
        baseTokenId: '0.0.1001',
        quoteTokenId: '0.0.1002',
        bestBidQuote: '0.249',
        bestAskQuote: '0.25',
        spreadPercent: '0.4008',
        bids: [['0.249', '5']],
        asks: [
          ['0.25', '2'],
          ['0.251', '3'],
        ],
        lastUpdateId: 3,
      });
    });

    it('reports an empty book with null best prices', async () => {
      const { body } = await get('/depth/2');
      expect(body).toMatchObject({
        bestBidQuote: null,
        bestAskQuote: null,
        spreadPercent: null,
        bids: [],
        asks: [],
        lastUpdateId: 0,
      });
    });

    it.each(['99', '0', '01', 'abc', '-1', '1e0', '0x1', '9999999999999999999'])(
      'answers 404 for the unknown book %s',
      async (id) => {
        const { status, body } = await get(`/depth/${id}`);
        expect(status).toBe(404);
        expect(body).toEqual({ error: 'Order book not found', code: 'ORDERBOOK_NOT_FOUND' });
      },
    );

    it('answers 404 for a closed book', async () => {
      await harness.services.store.books.update(1, { status: 'CLOSED' }, harness.clock.now());
      await harness.services.registry.load();
      expect((await get('/depth/1')).status).toBe(404);
    });
  });

  describe('GET /trades/:orderbookId', () => {
    beforeEach(async () => {
      await seedBook();
      await trade();
    });

    it('lists fills newest first with the RecentTradesResult shape', async () => {
      const { status, body } = await get('/trades/1');
      expect(status).toBe(200);
      expect(body).toEqual({
        orderbookId: '1',
        timestamp: harness.clock.now(),
        trades: [
          { tradeId: 3, timestamp: harness.clock.now(), price: '0.251', amountBase: '1', direction: 'buy', transactionHash: '' },
          { tradeId: 2, timestamp: harness.clock.now(), price: '0.25', amountBase: '1.5', direction: 'buy', transactionHash: '' },
          {
            tradeId: 1,
            timestamp: harness.clock.now() - 1_000,
            price: '0.25',
            amountBase: '0.5',
            direction: 'buy',
            transactionHash: '',
          },
        ],
        total: 3,
        page: 1,
        limit: 10,
      });
    });

    it('sorts ascending and pages on request', async () => {
      const { body } = await get('/trades/1?sort=asc&page=2&limit=2');
      expect(body).toMatchObject({ page: 2, limit: 2, total: 3 });
      expect((body.trades as { amountBase: string }[]).map((trade) => trade.amountBase)).toEqual(['1']);
    });

    it.each(['ASC', 'up', 'desc ', 'asc,desc'])('rejects the sort %j with 400', async (sort) => {
      const { status, body } = await get(`/trades/1?sort=${encodeURIComponent(sort)}`);
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'sort must be asc or desc', code: 'INVALID_SORT' });
    });

    it.each(['page=-1', 'limit=-5', 'page=-1.5', 'limit=-1e3'])('rejects the negative %s with 400', async (query) => {
      const { status, body } = await get(`/trades/1?${query}`);
      expect(status).toBe(400);
      expect(body.code).toBe('NEGATIVE_PAGINATION');
    });

    it.each([
      ['page=0&limit=0', 1, 10],
      ['page=abc&limit=xyz', 1, 10],
      ['page=&limit=', 1, 10],
      ['page=1.5&limit=2.5', 1, 10],
      ['page=-0&limit=-0', 1, 10],
      ['limit=1000', 1, 100],
      ['page=3&limit=1', 3, 1],
    ])('applies defaults and caps for %s', async (query, page, limit) => {
      const { status, body } = await get(`/trades/1?${query}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ page, limit });
    });

    it('answers an empty page past the end', async () => {
      const { body } = await get('/trades/1?page=9007199254740991&limit=100');
      expect(body).toMatchObject({ trades: [], total: 3 });
    });

    it('serves from a short-lived cache', async () => {
      const before = (await get('/trades/1')).body;
      await (await Trader.secp256k1(harness)).limit(1, BUY, 25_100, 10);
      expect((await get('/trades/1')).body).toEqual(before);
      harness.clock.advance(harness.config.tradesCacheMs);
      expect((await get('/trades/1')).body.total).toBe(4);
    });

    it('answers 404 for an unknown book', async () => {
      expect((await get('/trades/42')).status).toBe(404);
    });
  });

  describe('quotes', () => {
    beforeEach(seedBook);

    it('quotes an exact input against the current book', async () => {
      const { status, body } = await get(`/books/1/quote/exact-input?inputToken=${WHBAR}&inputAmount=305000000`);
      expect(status).toBe(200);
      expect(body).toEqual({
        outputToken: USDC,
        snappedInputAmount: '300000000',
        consumedInputAmount: '300000000',
        expectedOutputAmount: '747000',
        suggestedOutputAmount: '743265',
        slippageBps: 50,
        fillable: true,
      });
    });

    it('quotes an exact output, matching token addresses in any case', async () => {
      const { status, body } = await get(
        `/books/1/quote/exact-output?outputToken=${WHBAR.toUpperCase().replace('0X', '0x')}&outputAmount=250000000`,
      );
      expect(status).toBe(200);
      expect(body).toEqual({
        inputToken: USDC,
        requestedOutputAmount: '250000000',
        snappedOutputAmount: '250000000',
        expectedInputAmount: '625500',
        suggestedInputAmount: '628628',
        slippageBps: 50,
        fillable: true,
      });
    });

    it('says not fillable when the book is too shallow', async () => {
      const { body } = await get(`/books/1/quote/exact-output?outputToken=${WHBAR}&outputAmount=600000000`);
      expect(body.fillable).toBe(false);
    });

    it.each([
      ['a missing inputToken', '/books/1/quote/exact-input?inputAmount=1', 'MISSING_PARAMETER'],
      ['a missing inputAmount', `/books/1/quote/exact-input?inputToken=${WHBAR}`, 'MISSING_PARAMETER'],
      ['an empty outputAmount', `/books/1/quote/exact-output?outputToken=${WHBAR}&outputAmount=`, 'MISSING_PARAMETER'],
      ['an unknown book', `/books/77/quote/exact-input?inputToken=${WHBAR}&inputAmount=1`, 'UNKNOWN_ORDERBOOK'],
      ['a non-numeric book', `/books/x/quote/exact-output?outputToken=${WHBAR}&outputAmount=1`, 'UNKNOWN_ORDERBOOK'],
      ['a token of another book', `/books/1/quote/exact-input?inputToken=${SAUCE}&inputAmount=1`, 'TOKEN_NOT_IN_BOOK'],
      ['an exponent amount', `/books/1/quote/exact-input?inputToken=${WHBAR}&inputAmount=1e8`, 'INVALID_AMOUNT'],
      ['a negative amount', `/books/1/quote/exact-input?inputToken=${WHBAR}&inputAmount=-5`, 'INVALID_AMOUNT'],
      ['a zero amount', `/books/1/quote/exact-output?outputToken=${WHBAR}&outputAmount=0`, 'INVALID_AMOUNT'],
      [
        'an AMM opt-in that is not a flag',
        `/books/1/quote/exact-input?inputToken=${WHBAR}&inputAmount=1&isAMMEnabled=maybe`,
        'VALIDATION_FAILED',
      ],
      [
        'a repeated parameter',
        `/books/1/quote/exact-input?inputToken=${WHBAR}&inputToken=${USDC}&inputAmount=1`,
        'VALIDATION_FAILED',
      ],
    ])('answers 400 for %s', async (_name, url, code) => {
      const { status, body } = await get(url);
      expect(status).toBe(400);
      expect(body.code).toBe(code);
      expect(typeof body.error).toBe('string');
    });

    it('gives anonymous callers a cached quote and authenticated callers a fresh one', async () => {
      const url = `/books/1/quote/exact-input?inputToken=${USDC}&inputAmount=10000000`;
      const first = (await get(url)).body;
      await (await Trader.secp256k1(harness)).limit(1, SELL, 24_950, 100);
      expect((await get(url)).body).toEqual(first);
      const token = await harness.services.tokens.issue('0.0.5005');
      const fresh = (await get(url, { authorization: `Bearer ${token}` })).body;
      expect(fresh.expectedOutputAmount).not.toBe(first.expectedOutputAmount);
      harness.clock.advance(harness.config.quoteCacheMs);
      expect((await get(url)).body).toEqual(fresh);
    });

    it('treats a halted book as having no liquidity', async () => {
      await harness.services.store.books.update(1, { isHalted: true }, harness.clock.now());
      await harness.services.registry.load();
      const token = await harness.services.tokens.issue('0.0.5005');
      const { body } = await get(`/books/1/quote/exact-input?inputToken=${WHBAR}&inputAmount=100000000`, {
        authorization: `Bearer ${token}`,
      });
      expect(body).toMatchObject({ fillable: false, expectedOutputAmount: '0' });
    });
  });

  it('answers 401 to a bad or expired JWT even on a public route, so the client re-authenticates', async () => {
    const token = await harness.services.tokens.issue('0.0.5005');
    expect((await get('/books', { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await get('/books', { authorization: `Bearer ${token.slice(0, -2)}` })).body.code).toBe('INVALID_TOKEN');
    harness.clock.advance(harness.config.jwtTtlSeconds * 1000 + 10_000);
    expect((await get('/depth/1', { authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await get('/depth/1')).status).toBe(200);
  });

  it('serves the signature domain of the network', async () => {
    expect((await get('/signature/domain')).body).toEqual({
      name: 'PartialFillLimitOrderReactor',
      version: '1',
      chainId: 298,
      verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    });
  });
});

describe('open market data switched off', () => {
  beforeEach(async () => {
    harness = await startHarness({ OPEN_MARKET_DATA: 'false' });
  });
  afterEach(async () => {
    await harness.close();
  });

  it.each(['/books', '/depth/1', '/signature/domain'])(
    'answers 401 Missing Authorization header on %s without a JWT',
    async (url) => {
      const { status, body } = await get(url);
      expect(status).toBe(401);
      expect(body).toEqual({ error: 'Missing Authorization header', code: 'MISSING_AUTHORIZATION' });
    },
  );

  it.each([
    '/trades/1',
    `/books/1/quote/exact-input?inputToken=${WHBAR}&inputAmount=1`,
    `/books/1/quote/exact-output?outputToken=${WHBAR}&outputAmount=1`,
  ])('does not mount %s (404), even with a JWT', async (url) => {
    const token = await harness.services.tokens.issue('0.0.5005');
    expect((await get(url)).status).toBe(404);
    expect((await get(url, { authorization: `Bearer ${token}` })).status).toBe(404);
  });

  it('serves the public routes to a caller with a valid JWT', async () => {
    const token = await harness.services.tokens.issue('0.0.5005');
    expect((await get('/books', { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await get('/depth/1', { authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('answers 401 for an invalid or expired JWT', async () => {
    const token = await harness.services.tokens.issue('0.0.5005');
    expect((await get('/books', { authorization: `Bearer ${token}x` })).body.code).toBe('INVALID_TOKEN');
    expect((await get('/books', { authorization: 'Basic abc' })).body.code).toBe('INVALID_TOKEN');
    harness.clock.advance(harness.config.jwtTtlSeconds * 1000 + 10_000);
    const expired = await get('/books', { authorization: `Bearer ${token}` });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('INVALID_TOKEN');
  });
});
