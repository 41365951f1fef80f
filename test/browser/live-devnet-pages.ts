/** `npm start` with its bot, and Chromium pages on it: what both browser suites share. */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtEntry, cleanUpServiceProcesses, type ServiceProcess, startServiceProcess, until } from '@dex/server/test-support';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';

const DEVNET_MAIN = builtEntry(new URL('../../packages/devnet/src/main.ts', import.meta.url));
const WEB_ROOT = fileURLToPath(new URL('../../packages/web/dist', import.meta.url));
/** Written on every run; UPDATE_SCREENSHOTS=1 writes the README's copies in docs/screenshots instead. */
export const SCREENSHOTS = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS === '1' ? '../../docs/screenshots/' : '../../test-results/screenshots/',
    import.meta.url,
  ),
);
export const PHONE = { width: 360, height: 780 };
const DESKTOP = { width: 1280, height: 1000 };

/** `GET /depth/:orderbookId`, as far as the suites read it. */
export interface Depth {
  readonly lastUpdateId: number;
  readonly bids: [string, string][];
  readonly asks: [string, string][];
}

export interface OpenOptions {
  readonly viewport?: { width: number; height: number };
  /** The page's requests are meant to fail: Chromium logs each failed load as a console error. */
  readonly expectFailedLoads?: boolean;
  /** Runs on the page before it loads: what the page must find there (an injected wallet). */
  readonly beforeLoad?: (page: Page) => Promise<void>;
}

export class LiveDevnetPages {
  /** Console errors and uncaught exceptions of every page opened. */
  readonly errors: string[] = [];

  private constructor(
    readonly service: ServiceProcess,
    readonly url: string,
    private readonly browser: Browser,
  ) {}

  /** The devnet's entry serving the built page (with `env` added), once the bot quotes both sides of book 1. */
  static async start(chromium: string, env: Record<string, string> = {}): Promise<LiveDevnetPages> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const service = startServiceProcess(DEVNET_MAIN, { WEB_ROOT, MARKET_MAKER_INTERVAL_MS: '500', ...env });
    let browser: Browser | undefined;
    try {
      const url = await service.url;
      browser = await launchChromium(chromium);
      const pages = new LiveDevnetPages(service, url, browser);
      await until(
        async () => {
          const depth = await pages.json<Depth>('/depth/1');
          return depth.bids.length > 0 && depth.asks.length > 0 ? true : undefined;
        },
        'both sides quoted on book 1',
        60_000,
        200,
      );
      return pages;
    } catch (error) {
      // The suite's afterAll has nothing to close: stop the browser and the service (and its chain node) here.
      await browser?.close();
      cleanUpServiceProcesses();
      throw error;
    }
  }

  async json<T>(path: string): Promise<T> {
    const response = await fetch(`${this.url}${path}`);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  async open(path: string, options: OpenOptions = {}): Promise<Page> {
    const page = await this.browser.newPage({ viewport: options.viewport ?? DESKTOP });
    page.on('console', (message) => {
      if (message.type() === 'error' && options.expectFailedLoads !== true) this.errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.errors.push(`${page.url()}: ${error.message}`));
    await options.beforeLoad?.(page);
    await page.goto(`${this.url}${path}`);
    return page;
  }

  async close(): Promise<void> {
    await this.browser.close();
    cleanUpServiceProcesses();
  }
}
