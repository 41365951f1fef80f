import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cleanUpServiceProcesses, type ServiceProcess, startServiceProcess, until } from '@dex/server/test-support';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium, launchChromium } from './chromium.js';
import { type LadderRow, readLadder } from './ladder.js';

/** `npm start`: the service on the embedded devnet with the market-making bot, serving the built page. */
const DEVNET_MAIN = new URL('../../packages/devnet/src/main.ts', import.meta.url);
const WEB_ROOT = fileURLToPath(new URL('../../packages/web/dist', import.meta.url));
/** Written on every run; UPDATE_SCREENSHOTS=1 writes the README's copies in docs/screenshots instead. */
const SCREENSHOTS = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS === '1' ? '../../docs/screenshots/' : '../../test-results/screenshots/',
    import.meta.url,
  ),
);
const PHONE = { width: 360, height: 780 };
/** How late the ladder may show a depth snapshot the API has already answered. */
const LADDER_LAG_MS = 1_000;

const browserAt = ensureChromium();
if ('missing' in browserAt) console.warn(`browser tests skipped: ${browserAt.missing}`);

interface Depth {
  readonly lastUpdateId: number;
  readonly bids: [string, string][];
  readonly asks: [string, string][];
}

let service: ServiceProcess;
let url: string;
let browser: Browser;
/** Console errors and uncaught exceptions of every page the suite opened. */
const pageErrors: string[] = [];

async function json<T>(path: string): Promise<T> {
  const response = await fetch(`${url}${path}`);
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as T;
}

/**
 * A page at `path`; its console errors and uncaught exceptions are collected, except on a page
 * whose requests are meant to fail (Chromium itself logs each failed load as an error).
 */
async function open(path: string, viewport = { width: 1280, height: 900 }, expectFailedLoads = false): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('console', (message) => {
    if (message.type() === 'error' && !expectFailedLoads) pageErrors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await page.goto(`${url}${path}`);
  return page;
}

function rowsOf(depth: Depth): LadderRow[] {
  return [
    ...depth.asks.map(([price, size]) => ({ side: 'ask' as const, price, size })),
    ...depth.bids.map(([price, size]) => ({ side: 'bid' as const, price, size })),
  ];
}

describe.skipIf('missing' in browserAt)('the market web page in Chromium', () => {
  beforeAll(async () => {
    if (!('path' in browserAt)) return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    service = startServiceProcess(DEVNET_MAIN, { WEB_ROOT, MARKET_MAKER_INTERVAL_MS: '500' });
    url = await service.url;
    browser = await launchChromium(browserAt.path);
    // The bot quotes every book within seconds of the start.
    await until(async () => ((await json<Depth>('/depth/1')).asks.length > 0 ? true : undefined), 'depth on book 1', 60_000, 200);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    cleanUpServiceProcesses();
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

  it('shows the ladder GET /depth answers, within a second of each update, while the bot trades', async () => {
    const page = await open('/#/market/1');
    await page.getByTestId('ladder').waitFor({ timeout: 10_000 });
    const seen = new Set<number>();
    const deadline = Date.now() + 60_000;
    // Five different snapshots, each asked of the API first and then awaited on the page.
    while (seen.size < 5 && Date.now() < deadline) {
      const depth = await json<Depth>('/depth/1');
      if (seen.has(depth.lastUpdateId)) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      const asked = Date.now();
      const shown = await until(
        async () => {
          const ladder = await readLadder(page);
          return ladder.updateId >= depth.lastUpdateId ? ladder : undefined;
        },
        `the ladder at update ${depth.lastUpdateId}`,
        LADDER_LAG_MS + 2_000,
        25,
      );
      expect(Date.now() - asked, `update ${depth.lastUpdateId} reached the ladder late`).toBeLessThanOrEqual(LADDER_LAG_MS);
      // A newer update may have landed meanwhile; the same one must match row for row.
      if (shown.updateId === depth.lastUpdateId) {
        expect(shown.rows).toEqual(rowsOf(depth));
        seen.add(depth.lastUpdateId);
      }
    }
    expect(seen.size).toBe(5);
    await page.close();
  });

  it("shows the API's message and code when a request fails", async () => {
    const page = await open('/#/market/999999', undefined, true);
    const notice = page.getByTestId('api-error').first();
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain('ORDERBOOK_NOT_FOUND');
    await page.screenshot({ path: `${SCREENSHOTS}error.png` });
    await page.close();
  });

  it('fits a phone screen without scrolling sideways', async () => {
    const page = await open('/#/market/1', PHONE);
    await page.getByTestId('ladder').waitFor({ timeout: 10_000 });
    // A string: the suite's type check has no DOM library.
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `${SCREENSHOTS}market-phone.png`, fullPage: true });
    await page.close();
  });

  it('draws candles of the trades on the tape, and every page once the bot has traded', async () => {
    await until(
      async () => ((await json<{ trades: unknown[] }>('/trades/1')).trades.length > 0 ? true : undefined),
      'a trade on book 1',
      60_000,
      200,
    );
    const { candles } = await json<{ candles: unknown[] }>('/books/1/candles?interval=FIVEMIN');
    expect(candles.length).toBeGreaterThan(0);
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

  it('logged no console error and threw nothing on any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
