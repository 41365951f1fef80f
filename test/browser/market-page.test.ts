import { tempDataDir, until } from '@dex/server/test-support';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from './chromium.js';
import { expectLadderFollowsApi } from './ladder.js';
import { type Depth, LiveDevnetPages, type OpenOptions, PHONE, SCREENSHOTS } from './live-devnet-pages.js';
import { operatorCli } from './operator-process.js';

/**
 * How late the ladder may show a depth snapshot the API has already answered: a bound on its
 * following at all, not a latency target (those are benchmarks'). The stream brings an update in
 * milliseconds; the browser here shares 2 cores with the rest of the suite, and took 1.2 s once.
 */
const LADDER_LAG_MS = 3_000;

const browserAt = ensureChromium();
if ('missing' in browserAt) console.warn(`browser tests skipped: ${browserAt.missing}`);

let pages: LiveDevnetPages;
let apiKey: string;
const dataDir = tempDataDir();

const json = <T>(path: string) => pages.json<T>(path);
const open = (path: string, options?: OpenOptions): Promise<Page> => pages.open(path, options);

describe.skipIf('missing' in browserAt)('the market web page in Chromium', () => {
  beforeAll(async () => {
    if (!('path' in browserAt)) return;
    // The operator issues the page its data API key before the service starts, on the same DATA_DIR:
    // the store is new, so the CLI is told to make it.
    const issue = ['apikey', 'issue', '--name', 'web page', '--quota', '100000', '--create'];
    apiKey = (await operatorCli<{ key: string }>(dataDir.dir, issue)).key;
    pages = await LiveDevnetPages.start(browserAt.path, { DATA_DIR: dataDir.dir, WEB_DATA_API_KEY: apiKey });
  }, 240_000);

  afterAll(async () => {
    await pages?.close();
    dataDir.remove();
  });

  it('lists every devnet book with a link to its market', async () => {
    const { orderbooks } = await json<{ orderbooks: { id: number | string }[] }>('/books');
    expect(orderbooks.length).toBeGreaterThan(0);
    const page = await open('/');
    for (const book of orderbooks) {
      const row = page.locator(`[data-testid="market-row"][data-orderbook-id="${book.id}"]`);
      await row.waitFor({ timeout: 10_000 });
      expect(await row.locator(`a[href="#/market/${book.id}"]`).count()).toBe(1);
    }
    await page.close();
  });

  it('shows the ladder GET /depth answers, within seconds of each update, while the bot trades', async () => {
    const page = await open('/#/market/1');
    await page.getByTestId('ladder').waitFor({ timeout: 10_000 });
    await expectLadderFollowsApi(page, () => json<Depth>('/depth/1'), 5, LADDER_LAG_MS);
    await page.close();
  });

  it("shows the API's message and code when a request fails", async () => {
    const page = await open('/#/market/999999', { expectFailedLoads: true });
    const notice = page.getByTestId('api-error').first();
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain('ORDERBOOK_NOT_FOUND');
    await page.screenshot({ path: `${SCREENSHOTS}error.png` });
    await page.close();
  });

  it('fits a phone screen without scrolling sideways', async () => {
    const page = await open('/#/market/1', { viewport: PHONE });
    await page.getByTestId('ladder').waitFor({ timeout: 10_000 });
    // A string: the suite's type check has no DOM library.
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `${SCREENSHOTS}market-phone.png`, fullPage: true });
    await page.close();
  });

  it('draws candles of the trades on the tape, and every page once the bot has traded', async () => {
    // A taker's swap with the pool is on the tape but not in the book's candles: wait for a fill on the book.
    await until(
      async () =>
        (await json<{ candles: unknown[] }>('/books/1/candles?interval=FIVEMIN')).candles.length > 0 ? true : undefined,
      'a candle of book 1',
      60_000,
      200,
    );
    expect((await json<{ trades: unknown[] }>('/trades/1')).trades.length).toBeGreaterThan(0);
    const market = await open('/#/market/1');
    await market.locator('[data-testid="candles"]:not([data-count=""]):not([data-count="0"])').waitFor({ timeout: 15_000 });
    await market.getByTestId('trade').first().waitFor({ timeout: 10_000 });
    await market.screenshot({ path: `${SCREENSHOTS}market.png`, fullPage: true });
    await market.close();
    const markets = await open('/');
    await markets.getByTestId('market-row').first().waitFor({ timeout: 10_000 });
    await markets.screenshot({ path: `${SCREENSHOTS}markets.png`, fullPage: true });
    await markets.close();
  });

  it('lists the pools and farms the data API answers, on the key the operator gave the page', async () => {
    const headers = { 'x-api-key': apiKey };
    const pools = (await (await fetch(`${pages.url}/data/pools`, { headers })).json()) as { id: number }[];
    const farms = (await (await fetch(`${pages.url}/data/farms`, { headers })).json()) as { id: number }[];
    expect(pools.length).toBeGreaterThan(0);
    const poolsPage = await open('/#/pools');
    await poolsPage.getByTestId('pool-row').first().waitFor({ timeout: 10_000 });
    const shownPools = await poolsPage
      .getByTestId('pool-row')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-pool-id')));
    expect(shownPools).toEqual(pools.map((pool) => String(pool.id)));
    await poolsPage.screenshot({ path: `${SCREENSHOTS}pools.png`, fullPage: true });
    await poolsPage.close();
    const farmsPage = await open('/#/farms');
    if (farms.length > 0) await farmsPage.getByTestId('farm-row').first().waitFor({ timeout: 10_000 });
    const shownFarms = await farmsPage
      .getByTestId('farm-row')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-farm-id')));
    expect(shownFarms).toEqual(farms.map((farm) => String(farm.id)));
    await farmsPage.screenshot({ path: `${SCREENSHOTS}farms.png`, fullPage: true });
    await farmsPage.close();
  });

  it('logged no console error and threw nothing on any page', () => {
    expect(pages.errors).toEqual([]);
  });
});
