import { ApiError, type Client, createClient, getBooks, getOpenOrders, type OrderbookItem, placeOrders } from '@dex/sdk';
import { AccountOnboarding, type OnboardedAccount } from './account-onboarding.js';
import { Backoff } from './backoff.js';
import { initialMid } from './initial-mid.js';
import { type BotLogger, errorFields, silentLogger } from './logger.js';
import { cancelByIds, cancelOpenOrders } from './open-orders.js';
import { type MarketMakerOptions, type MarketMakerSettings, settingsOf } from './options.js';
import { PriceModel } from './price-model.js';
import { Prng } from './prng.js';
import { Quoter } from './quoter.js';
import { planRequote, type Quote } from './requote.js';
import { Taker } from './taker.js';
import { TickGrid } from './tick-grid.js';

/** What the bot has done since it started. */
export interface MarketMakerStats {
  /** Refreshes run to the end. */
  cycles: number;
  /** Maker orders saved. */
  placed: number;
  /** Cancellations the server accepted. */
  cancelled: number;
  /** Market orders of the taker. */
  takes: number;
  /** Taker orders that traded. */
  takerFills: number;
  /** Failures logged. */
  errors: number;
}

/** The state of one quoted book. */
interface QuotedBook {
  readonly grid: TickGrid;
  readonly quoter: Quoter;
  halted: boolean;
  quotes: Quote[];
  readonly quoting: Backoff;
  readonly taking: Backoff;
}

/** How often the bot says what it did. */
const SUMMARY_MS = 60_000;
/** Largest page of `GET /books`. */
const BOOKS_PAGE = 500;

/**
 * A market-making bot built only on the SDK: it quotes a ladder on both sides of every book
 * around a mid that moves as a bounded random walk, replaces stale quotes every `intervalMs`, and
 * has a second account take liquidity now and then. It talks to the API over HTTP like any
 * integrator. Failures (network, 4xx, 429, 503) are logged and retried with a back-off; nothing it
 * does throws into its host. `stop()` cancels its resting orders (best effort) and leaves no timer.
 */
export class MarketMaker {
  readonly stats: MarketMakerStats = { cycles: 0, placed: 0, cancelled: 0, takes: 0, takerFills: 0, errors: 0 };
  private readonly settings: MarketMakerSettings;
  private readonly logger: BotLogger;
  private readonly maker: Client;
  private readonly takerClient: Client | undefined;
  private readonly taker: Taker | undefined;
  private readonly prices: PriceModel;
  private readonly sizes: Prng;
  private readonly takes: Prng;
  private readonly books = new Map<number, QuotedBook>();
  /** Books without a starting price, reported once. */
  private readonly unpriced = new Set<number>();
  private readonly onboarding: AccountOnboarding;
  /** Ids whose cancellation the server accepted, until they leave the open listing. */
  private readonly cancelling = new Set<number>();
  /** Ids to cancel at the end of the refresh (failed cancellations wait here too). */
  private toCancel: number[] = [];
  private readonly cycle: Backoff;
  private booksReadAt = Number.NEGATIVE_INFINITY;
  /** Refresh rounds so far: where the next round starts among the books. */
  private rounds = 0;
  private cleared = false;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private summary = { at: 0, stats: { ...this.stats } };

  constructor(options: MarketMakerOptions) {
    this.settings = settingsOf(options, silentLogger);
    const { baseUrl, maker, taker, seed, requestTimeoutMs, intervalMs, maxBackoffMs } = this.settings;
    this.logger = this.settings.logger;
    // A request that hangs must not hold the bot or its stop.
    const connection = { baseUrl, fetch: this.settings.fetch, timeoutMs: requestTimeoutMs };
    this.maker = createClient({ ...connection, signer: maker });
    this.takerClient = taker === undefined ? undefined : createClient({ ...connection, signer: taker });
    this.taker = this.takerClient === undefined ? undefined : new Taker(this.takerClient);
    this.prices = new PriceModel(new Prng(seed), this.settings);
    this.sizes = new Prng(seed ^ 0x5a5a5a5a);
    this.takes = new Prng(seed ^ 0x3c3c3c3c);
    this.cycle = new Backoff(intervalMs, maxBackoffMs);
    const senders = this.settings.onboarding;
    const accounts: OnboardedAccount[] = [{ role: 'maker', client: this.maker, send: senders?.maker }];
    if (this.takerClient !== undefined) accounts.push({ role: 'taker', client: this.takerClient, send: senders?.taker });
    this.onboarding = new AccountOnboarding(accounts, this.logger, (error, message, fields) =>
      this.failed(error, message, fields),
    );
  }

  /** Starts refreshing at once; does nothing when running. Never throws. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.cleared = false;
    this.summary = { at: Date.now(), stats: { ...this.stats } };
    this.logger.info({ maker: this.settings.maker.account, taker: this.settings.taker?.account }, 'market maker starting');
    this.schedule(0);
  }

  /** Stops refreshing, waits for a refresh under way, then cancels both accounts' open orders (best effort). */
  stop(): Promise<void> {
    if (!this.running) return this.stopping ?? Promise.resolve();
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stopping = (async () => {
      await this.current;
      for (const client of [this.maker, this.takerClient]) {
        if (client === undefined) continue;
        try {
          const cancelled = await cancelOpenOrders(client);
          this.stats.cancelled += cancelled.length;
        } catch (error) {
          this.failed(error, 'cancelling the open orders at stop failed');
        }
      }
      for (const book of this.books.values()) book.quotes = [];
      this.toCancel = [];
      this.logger.info({ ...this.stats }, 'market maker stopped');
    })();
    return this.stopping;
  }

  /** The mid of every quoted book, display prices by book id. */
  mids(): Map<number, string> {
    const mids = new Map<number, string>();
    for (const [bookId, ticks] of this.prices.mids()) {
      const book = this.books.get(bookId);
      if (book !== undefined) mids.set(bookId, book.grid.price(ticks));
    }
    return mids;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.current = this.refresh().finally(() => {
        this.current = undefined;
      });
    }, delayMs);
  }

  /** One refresh and the scheduling of the next; never rejects. */
  private async refresh(): Promise<void> {
    let delay = this.settings.intervalMs;
    try {
      await this.refreshOnce(Date.now());
      this.cycle.succeeded();
      this.stats.cycles++;
    } catch (error) {
      delay = this.cycle.failed(Date.now(), error);
      this.failed(error, 'market maker refresh failed', { retryInMs: delay });
    }
    this.report();
    if (this.running) this.schedule(delay);
  }

  private async refreshOnce(now: number): Promise<void> {
    if (now - this.booksReadAt >= this.settings.booksRefreshMs) {
      await this.readBooks(now);
      await this.onboarding.check(this.books.keys(), () => this.running);
    }
    if (!this.cleared) await this.clearLeftovers();
    await this.reconcile();
    // Each round starts one book further on, and a 429 ends the round: the account's limit is
    // shared, so the books first in line would otherwise spend it all and starve the last.
    const books = [...this.books.values()];
    const first = this.rounds++ % Math.max(1, books.length);
    for (const book of [...books.slice(first), ...books.slice(0, first)]) {
      if (!this.running) return;
      if (!book.quoting.ready(now)) continue;
      try {
        await this.requote(book, now);
        book.quoting.succeeded();
      } catch (error) {
        const retryInMs = book.quoting.failed(now, error);
        this.failed(error, 'quoting a book failed', { book: book.grid.id, retryInMs });
        if (error instanceof ApiError && error.status === 429) break;
      }
    }
    await this.flushCancels();
    for (const book of this.books.values()) {
      if (!this.running) return;
      if (book.halted || !book.taking.ready(now) || !this.takes.chance(this.settings.takeProbability)) continue;
      await this.take(book, now);
    }
  }

  /** Reads the book list: new open books are priced and added, closed or dropped ones are left (their quotes cancelled). */
  private async readBooks(now: number): Promise<void> {
    const { orderbooks } = await getBooks(this.maker, { limit: BOOKS_PAGE });
    const wanted = new Map<number, OrderbookItem>();
    for (const book of orderbooks) {
      if (book.status === 'OPEN' && (this.settings.books === undefined || this.settings.books.includes(book.id))) {
        wanted.set(book.id, book);
      }
    }
    for (const [bookId, book] of this.books) {
      const item = wanted.get(bookId);
      if (item === undefined) {
        this.toCancel.push(...book.quotes.map((quote) => quote.id));
        this.books.delete(bookId);
      } else {
        book.halted = item.isMarketHalted === 1;
      }
    }
    for (const [bookId, item] of wanted) {
      if (!this.books.has(bookId)) this.addBook(item);
    }
    this.booksReadAt = now;
  }

  private addBook(item: OrderbookItem): void {
    const grid = new TickGrid(item);
    const start = this.prices.has(item.id) ? this.prices.mid(item.id) : initialMid(grid, this.settings.referencePrices);
    if (start === undefined) {
      if (!this.unpriced.has(item.id))
        this.logger.warn({ book: item.id }, 'market maker: no starting price for the book; left alone');
      this.unpriced.add(item.id);
      return;
    }
    if (!this.prices.has(item.id)) this.prices.add(item.id, start);
    const { maxBackoffMs, intervalMs } = this.settings;
    this.books.set(item.id, {
      grid,
      quoter: new Quoter(grid, start, this.settings, this.sizes),
      halted: item.isMarketHalted === 1,
      quotes: [],
      quoting: new Backoff(intervalMs, maxBackoffMs),
      taking: new Backoff(intervalMs, maxBackoffMs),
    });
    this.logger.info({ book: item.id, mid: grid.price(start) }, 'market maker quoting a book');
  }

  /** Cancels what a previous run left open, once per start. */
  private async clearLeftovers(): Promise<void> {
    for (const client of [this.maker, this.takerClient]) {
      if (client === undefined) continue;
      const ids = await cancelOpenOrders(client);
      for (const id of ids) this.cancelling.add(id);
      this.stats.cancelled += ids.length;
      if (ids.length > 0)
        this.logger.info(
          { account: client.session.signer?.account, orders: ids.length },
          'market maker cancelled leftover orders',
        );
    }
    this.cleared = true;
  }

  /**
   * Brings the remembered quotes in line with the maker's open orders: gone ones (filled,
   * cancelled, expired) are forgotten, partly filled ones become stale, and open orders the bot
   * does not know (a save whose answer was lost) are cancelled.
   */
  private async reconcile(): Promise<void> {
    const open = new Map((await getOpenOrders(this.maker)).map((order) => [order.id, order]));
    const known = new Set<number>();
    for (const book of this.books.values()) {
      book.quotes = book.quotes.filter((quote) => open.has(quote.id));
      for (const quote of book.quotes) {
        known.add(quote.id);
        if (open.get(quote.id)?.status === 'PARTIALLY_FILLED') quote.partial = true;
      }
    }
    for (const id of this.cancelling) if (!open.has(id)) this.cancelling.delete(id);
    const queued = new Set(this.toCancel);
    for (const id of open.keys()) {
      if (!known.has(id) && !this.cancelling.has(id) && !queued.has(id)) this.toCancel.push(id);
    }
  }

  /** Moves the book's mid, places the ladder's missing levels, and queues the stale quotes for cancellation. */
  private async requote(book: QuotedBook, now: number): Promise<void> {
    const mid = this.prices.step(book.grid.id);
    const target = book.halted ? [] : book.quoter.ladder(mid);
    const staleBefore = now - (this.settings.quoteLifetimeSeconds * 1000) / 2;
    const plan = planRequote(book.quotes, target, staleBefore);
    book.quotes = plan.keep;
    this.toCancel.push(...plan.cancel.map((quote) => quote.id));
    if (plan.place.length === 0) return;
    const nowSeconds = Math.floor(now / 1000);
    const requests = plan.place.map((level) => book.quoter.order(level, book.quoter.steps(level), nowSeconds));
    const { orders } = await placeOrders(this.maker, { orders: requests });
    this.stats.placed += orders.length;
    orders.forEach((saved, index) => {
      const level = plan.place[index];
      const { status } = saved.meta;
      if (level === undefined || (status !== 'ACTIVE' && status !== 'PARTIALLY_FILLED')) return;
      book.quotes.push({
        id: Number(saved.meta.id),
        side: level.side,
        ticks: level.ticks,
        placedAt: now,
        partial: status === 'PARTIALLY_FILLED',
      });
    });
  }

  /** Cancels the queued ids in one request (more only past 500); ids of a failed request stay queued. */
  private async flushCancels(): Promise<void> {
    if (this.toCancel.length === 0) return;
    const ids = this.toCancel;
    this.toCancel = [];
    try {
      const accepted = await cancelByIds(this.maker, ids);
      for (const id of ids) this.cancelling.add(id);
      this.stats.cancelled += accepted.length;
    } catch (error) {
      this.toCancel.push(...ids);
      throw error;
    }
  }

  private async take(book: QuotedBook, now: number): Promise<void> {
    if (this.taker === undefined) return;
    const mid = this.prices.mid(book.grid.id);
    // Half to one and a half times a level-0 quote: it trades through one or two levels.
    const least = book.grid.minSteps(mid);
    const steps = Math.max(least, Math.floor((least * this.settings.sizeMultiple * this.takes.int(2, 6)) / 4));
    try {
      const saved = await this.taker.take(book.grid, mid, steps);
      book.taking.succeeded();
      if (saved === undefined) return;
      this.stats.takes++;
      if (BigInt(saved.meta.filledAmount) > 0n) this.stats.takerFills++;
    } catch (error) {
      const retryInMs = book.taking.failed(now, error);
      this.failed(error, 'taking liquidity failed', { book: book.grid.id, retryInMs });
    }
  }

  private failed(error: unknown, message: string, fields: Record<string, unknown> = {}): void {
    this.stats.errors++;
    this.logger.warn({ ...fields, ...errorFields(error) }, message);
  }

  /** Once a minute: what the bot did since the last report. */
  private report(): void {
    const now = Date.now();
    if (now - this.summary.at < SUMMARY_MS) return;
    const last = this.summary.stats;
    const delta = Object.fromEntries(
      Object.entries(this.stats).map(([name, value]) => [name, value - last[name as keyof MarketMakerStats]]),
    );
    this.logger.info({ ...delta, mids: Object.fromEntries(this.mids()) }, 'market maker: the last minute');
    this.summary = { at: now, stats: { ...this.stats } };
  }
}
