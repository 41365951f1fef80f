import {
  type LevelSource,
  type MarketGrid,
  parsePositiveRawAmount,
  percentText,
  quoteExactInput,
  quoteExactOutput,
  type RoutedPool,
} from '@dex/core';
import {
  type BookCandles,
  type BooksPage,
  type DepthSnapshot,
  type ExactInputQuote,
  type ExactOutputQuote,
  isoTime,
  type OrderbookItem,
  type RecentTrades,
} from '@dex/protocol';
import {
  CANDLE_INTERVALS,
  type HistoryQuery,
  parseRecentQuery,
  type RecentWindowBounds,
} from '../../domain/data-api/history-window.js';
import { AppError } from '../../domain/errors.js';
import type { TradeRecord } from '../../domain/orders/trade-records.js';
import { offsetOf, type SortOrder } from '../../domain/query-values.js';
import { TtlCache } from '../../domain/ttl-cache.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store/ports.js';
import type { Market, MarketRegistry } from '../markets/market-registry.js';
import { readBookCandles } from './book-candles.js';
import type { BookView, BookViews } from './book-views.js';

export type OrderbookItemBody = OrderbookItem;
export type BooksBody = BooksPage;
export type DepthBody = DepthSnapshot;
export type TradesBody = RecentTrades;
export type CandlesBody = BookCandles;
export type ExactInputQuoteBody = ExactInputQuote;
export type ExactOutputQuoteBody = ExactOutputQuote;
/** A book's depth as answered, less the time of the answer. */
export type BookDepth = Omit<DepthBody, 'timestamp'>;

/** A depth answer: the book's depth, the same object until the book changes, and the time it was read. */
export interface TimedDepth {
  readonly depth: BookDepth;
  readonly timestamp: number;
}

export interface MarketDataOptions {
  readonly quoteSlippageBps: number;
  readonly quoteCacheMs: number;
  readonly tradesCacheMs: number;
  readonly booksCacheMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CACHE_ENTRIES = 10_000;
/** A book's candles: the last 500 buckets by default, at most 1,000 per answer. */
export const CANDLE_WINDOW: RecentWindowBounds = { defaultBuckets: 500, maxBuckets: 1_000 };
/** Candle answers are large: fewer of them are kept. */
const CANDLE_CACHE_ENTRIES = 256;
/** Pages of the book list kept per refresh of the list: a client pages through a few. */
const BOOKS_PAGES_KEPT = 64;

/** A display percent with four decimals, from integer ticks (never used in any amount). */
function percent(numerator: bigint, denominator: bigint): string {
  return percentText(numerator, denominator, 4, 'nearest');
}

/** A price level in ticks and size steps as the wire shows it: `[price, base size]`, human-readable. */
export function displayLevel(grid: MarketGrid, [price, size]: readonly [bigint, number]): [string, string] {
  return [grid.formatPrice(price), grid.formatBase(grid.baseAmount(size))];
}

/** A book that never matches (closed or halted): quotes see no liquidity. */
const NO_LIQUIDITY: LevelSource = { forEachLevel: () => {} };

/** Public market data: book list, depth, trade tape and quotes, read from the engines and the store. */
export class MarketDataService {
  private readonly booksCache: TtlCache<OrderbookItemBody[]>;
  private readonly tradesCache: TtlCache<TradesBody>;
  private readonly candlesCache: TtlCache<CandlesBody>;
  private readonly inputQuotes: TtlCache<ExactInputQuoteBody>;
  private readonly outputQuotes: TtlCache<ExactOutputQuoteBody>;
  /** Each book's depth as last described, and the view and market it was read from, with their update id. */
  private readonly depths = new Map<number, { view: BookView; market: Market; depth: BookDepth }>();
  /** Pages of the list last cached, so an unchanged list answers the same object (an edge serialises it once). */
  private booksPages: { items: OrderbookItemBody[]; pages: Map<string, BooksBody> } | null = null;

  constructor(
    private readonly registry: MarketRegistry,
    private readonly views: BookViews,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly options: MarketDataOptions,
    /** Whether the engines hold what the store holds (not after a failed commit, until the books are rebuilt). */
    private readonly inStep: () => boolean = () => true,
  ) {
    this.booksCache = new TtlCache(options.booksCacheMs, 1);
    this.tradesCache = new TtlCache(options.tradesCacheMs, CACHE_ENTRIES);
    this.candlesCache = new TtlCache(options.tradesCacheMs, CANDLE_CACHE_ENTRIES);
    this.inputQuotes = new TtlCache(options.quoteCacheMs, CACHE_ENTRIES);
    this.outputQuotes = new TtlCache(options.quoteCacheMs, CACHE_ENTRIES);
  }

  async books(page: number, limit: number): Promise<BooksBody> {
    const now = this.clock.now();
    let items = this.booksCache.get('all', now);
    if (items === undefined) {
      items = await this.describeAll(now);
      this.booksCache.set('all', items, now);
    }
    if (this.booksPages?.items !== items || this.booksPages.pages.size >= BOOKS_PAGES_KEPT)
      this.booksPages = { items, pages: new Map() };
    const key = `${page}:${limit}`;
    let body = this.booksPages.pages.get(key);
    if (body === undefined) {
      body = { orderbooks: items.slice(offsetOf(page, limit), offsetOf(page, limit) + limit), total: items.length, page, limit };
      this.booksPages.pages.set(key, body);
    }
    return body;
  }

  /**
   * Full depth of an open book; 404 for unknown or closed books. Described once per state of the
   * book (its update id), as it is read far more often than it changes.
   */
  depth(bookId: number | undefined): TimedDepth {
    const { market, engine } = this.openMarket(bookId, 'ORDERBOOK_NOT_FOUND');
    const timestamp = this.clock.now();
    const kept = this.depths.get(market.book.id);
    if (kept?.view === engine && kept.market === market && kept.depth.lastUpdateId === engine.lastUpdateId)
      return { depth: kept.depth, timestamp };
    const depth = describeDepth(market, engine);
    this.depths.set(market.book.id, { view: engine, market, depth });
    return { depth, timestamp };
  }

  /** One page of the book's trade tape, from a cache that lives `tradesCacheMs`. */
  async trades(bookId: number | undefined, sort: SortOrder, page: number, limit: number): Promise<TradesBody> {
    const market = bookId === undefined ? undefined : this.registry.get(bookId);
    if (market === undefined) throw new AppError('ORDERBOOK_NOT_FOUND');
    const now = this.clock.now();
    const key = `${market.book.id}:${sort}:${page}:${limit}`;
    const cached = this.tradesCache.get(key, now);
    if (cached !== undefined) return cached;
    const result = await this.store.trades.page(market.book.id, sort, offsetOf(page, limit), limit);
    const body: TradesBody = {
      orderbookId: String(market.book.id),
      timestamp: now,
      trades: result.trades.map((trade) => ({
        tradeId: trade.id,
        timestamp: trade.executedAt,
        price: trade.price,
        amountBase: market.grid.formatBase(trade.baseAmount),
        direction: trade.direction,
        transactionHash: trade.transactionHash ?? '',
      })),
      total: result.total,
      page,
      limit,
    };
    this.tradesCache.set(key, body, now);
    return body;
  }

  /**
   * The book's candles over the window the query names (interval required; `to` defaults to now,
   * `from` to 500 buckets back), buckets without trades left out; cached like the tape.
   */
  async candles(bookId: number | undefined, query: HistoryQuery): Promise<CandlesBody> {
    const now = this.clock.now();
    const window = parseRecentQuery(query, CANDLE_INTERVALS, now, CANDLE_WINDOW);
    const market = bookId === undefined ? undefined : this.registry.get(bookId);
    if (market === undefined) throw new AppError('ORDERBOOK_NOT_FOUND');
    const key = `${market.book.id}:${window.interval}:${window.startMs}:${window.endMs}`;
    const cached = this.candlesCache.get(key, now);
    if (cached !== undefined) return cached;
    const candles = await readBookCandles(this.store.candles, market.book.id, market.grid, window);
    const body: CandlesBody = {
      orderbookId: String(market.book.id),
      interval: window.interval as CandlesBody['interval'],
      candles,
    };
    this.candlesCache.set(key, body, now);
    return body;
  }

  /** Simulates spending exactly `inputAmount` of `inputToken`; `fresh` skips the anonymous cache. */
  quoteExactInput(
    bookId: number | undefined,
    inputToken: string,
    inputAmount: string,
    fresh: boolean,
    withPool = false,
  ): ExactInputQuoteBody {
    const { market, liquidity, pool } = this.quotable(bookId, withPool);
    const amount = parsePositiveRawAmount(inputAmount, 'inputAmount');
    const input = this.sideOf(market, inputToken, 'inputToken');
    const compute = (): ExactInputQuoteBody => {
      const quote = quoteExactInput(liquidity, market.grid, input, amount, this.options.quoteSlippageBps, pool);
      return {
        outputToken: input === 'base' ? market.quote.evmAddress : market.base.evmAddress,
        snappedInputAmount: quote.snappedInput.toString(),
        consumedInputAmount: quote.consumedInput.toString(),
        expectedOutputAmount: quote.expectedOutput.toString(),
        suggestedOutputAmount: quote.suggestedOutput.toString(),
        slippageBps: this.options.quoteSlippageBps,
        fillable: quote.fillable,
      };
    };
    if (fresh) return compute();
    return this.inputQuotes.getOrCompute(`${market.book.id}:${input}:${amount}:${pool !== undefined}`, this.clock.now(), compute);
  }

  /** Simulates receiving exactly `outputAmount` of `outputToken`; `fresh` skips the anonymous cache. */
  quoteExactOutput(
    bookId: number | undefined,
    outputToken: string,
    outputAmount: string,
    fresh: boolean,
    withPool = false,
  ): ExactOutputQuoteBody {
    const { market, liquidity, pool } = this.quotable(bookId, withPool);
    const amount = parsePositiveRawAmount(outputAmount, 'outputAmount');
    const output = this.sideOf(market, outputToken, 'outputToken');
    const compute = (): ExactOutputQuoteBody => {
      const quote = quoteExactOutput(liquidity, market.grid, output, amount, this.options.quoteSlippageBps, pool);
      return {
        inputToken: output === 'base' ? market.quote.evmAddress : market.base.evmAddress,
        requestedOutputAmount: amount.toString(),
        snappedOutputAmount: quote.snappedOutput.toString(),
        expectedInputAmount: quote.expectedInput.toString(),
        suggestedInputAmount: quote.suggestedInput.toString(),
        slippageBps: this.options.quoteSlippageBps,
        fillable: quote.fillable,
      };
    };
    if (fresh) return compute();
    return this.outputQuotes.getOrCompute(
      `${market.book.id}:${output}:${amount}:${pool !== undefined}`,
      this.clock.now(),
      compute,
    );
  }

  private openMarket(
    bookId: number | undefined,
    missing: 'ORDERBOOK_NOT_FOUND' | 'UNKNOWN_ORDERBOOK',
  ): { market: Market; engine: BookView } {
    const market = bookId === undefined ? undefined : this.registry.get(bookId);
    const engine = bookId === undefined ? undefined : this.views.view(bookId);
    if (market === undefined || engine === undefined || market.book.status !== 'OPEN') throw new AppError(missing);
    // Books ahead of the store show turns nobody was told of: no depth or quote from them.
    if (!this.inStep()) throw new AppError('TRADING_UNAVAILABLE');
    return { market, engine };
  }

  /** The book's levels (none while halted) and, if asked for and the book routes into one, its pool. */
  private quotable(
    bookId: number | undefined,
    withPool: boolean,
  ): { market: Market; liquidity: LevelSource; pool: RoutedPool | undefined } {
    const { market, engine } = this.openMarket(bookId, 'UNKNOWN_ORDERBOOK');
    const reserves = withPool && !engine.isHalted ? engine.pool : undefined;
    return {
      market,
      liquidity: engine.isHalted ? NO_LIQUIDITY : engine,
      pool: reserves === undefined ? undefined : { reserves, grid: market.grid },
    };
  }

  private sideOf(market: Market, token: string, field: string): 'base' | 'quote' {
    const address = token.toLowerCase();
    // A native-coin side answers to its listed zero address and to the wrapped token it settles in.
    if (address === market.base.evmAddress.toLowerCase() || address === market.settlement.base) return 'base';
    if (address === market.quote.evmAddress.toLowerCase() || address === market.settlement.quote) return 'quote';
    throw new AppError('TOKEN_NOT_IN_BOOK', `${field} is neither the base nor the quote token of order book ${market.book.id}`);
  }

  private async describeAll(now: number): Promise<OrderbookItemBody[]> {
    return Promise.all(this.registry.list().map((market) => this.describe(market, now)));
  }

  private async describe(market: Market, now: number): Promise<OrderbookItemBody> {
    const { book, base, quote, grid } = market;
    const [latest, day] = await Promise.all([
      this.store.trades.latest(book.id),
      this.store.trades.windowStats(book.id, now - DAY_MS),
    ]);
    // "0" where there is no price to give, as the live service sends for a book that never traded.
    const price = (ticks: bigint | null) => (ticks === null ? '0' : grid.formatPrice(ticks));
    return {
      id: book.id,
      baseTokenId: base.id,
      quoteTokenId: quote.id,
      baseTokenEvmAddress: base.evmAddress,
      quoteTokenEvmAddress: quote.evmAddress,
      status: book.status,
      isAMMEnabled: book.isAmmEnabled ? 1 : 0,
      isMarketHalted: book.isHalted ? 1 : 0,
      baseTokenSymbol: base.symbol,
      quoteTokenSymbol: quote.symbol,
      baseTokenDecimals: base.decimals,
      quoteTokenDecimals: quote.decimals,
      tickStep: book.tickStep,
      sizeStep: book.sizeStep,
      // Raw units, as the live service sends them; the store keeps the operator's display decimals.
      lotSize: grid.spec.lotSize.toString(),
      minNotional: grid.minNotionalRaw.toString(),
      quotePrice: latest === undefined ? '0' : latest.price,
      quotePrice24hPct: change(latest, day.openTicks),
      quotePrice24hHigh: price(day.highTicks),
      quotePrice24hLow: price(day.lowTicks),
      baseVol24h: grid.formatBase(day.baseVolume),
      quoteVol24h: grid.formatQuote(day.quoteVolume),
      takerFeePips: book.takerFeePips,
      makerFeePips: book.makerFeePips,
      createdAt: isoTime(book.createdAt),
      updatedAt: isoTime(book.updatedAt),
    };
  }
}

/** A book's levels as the wire shows them, with its best prices and spread. */
function describeDepth({ grid, book }: Market, view: BookView): BookDepth {
  const snapshot = view.depth();
  const bid = snapshot.bids[0]?.[0];
  const ask = snapshot.asks[0]?.[0];
  const level = (pair: readonly [bigint, number]) => displayLevel(grid, pair);
  return {
    orderbookId: String(book.id),
    baseTokenId: book.baseTokenId,
    quoteTokenId: book.quoteTokenId,
    bestBidQuote: bid === undefined ? null : grid.formatPrice(bid),
    bestAskQuote: ask === undefined ? null : grid.formatPrice(ask),
    // Against the mid price (ask + bid) / 2, kept in whole ticks by doubling both sides.
    spreadPercent: bid === undefined || ask === undefined ? null : percent(2n * (ask - bid), ask + bid),
    bids: snapshot.bids.map(level),
    asks: snapshot.asks.map(level),
    lastUpdateId: snapshot.lastUpdateId,
  };
}

/** 24-hour change of the last price against the first trade of the window; null without one. */
function change(latest: TradeRecord | undefined, openTicks: bigint | null): string | null {
  if (latest === undefined || openTicks === null) return null;
  return percent(latest.priceTicks - openTicks, openTicks);
}
