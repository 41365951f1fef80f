import { until } from '@dex/server/test-support';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareDecimals } from '../../packages/web/src/decimal.js';
import { ensureChromium } from './chromium.js';
import { devnetChainRecord, injectDevnetWallet } from './devnet-wallet.js';
import { expectLadderFollowsApi, readLadder } from './ladder.js';
import { type Depth, LiveDevnetPages, PHONE, SCREENSHOTS } from './live-devnet-pages.js';
import { operatorCli } from './operator-process.js';
import { half, placeLimitBuy, placeOrder } from './order-form.js';

/** How long the chain may take to confirm a cancellation or settle a fill. */
const CHAIN_MS = 30_000;
/** A stream delivers within milliseconds; the bound is for a loaded machine. */
const STREAM_LAG_MS = 3_000;

const browserAt = ensureChromium();
if ('missing' in browserAt) console.warn(`browser tests skipped: ${browserAt.missing}`);

let pages: LiveDevnetPages;
/** The session's page, its account's address, and a buy price far below the market. */
let page: Page;
let address: string;
let awayPrice: string;

const json = <T>(path: string) => pages.json<T>(path);

/** Gas, tokens and reactor allowances on the devnet chain, by the operator CLI on the service's DATA_DIR. */
const fund = (account: string) =>
  operatorCli(pages.service.dataDir, ['account', 'fund', '--account', account, '--amount', '500']);

/** Waits, bounded by the chain's confirmation, for the order to be listed as ended with this status. */
const endedAs = (on: Page, orderId: string, status: 'cancelled' | 'filled') =>
  on.locator(`[data-testid="history-order"][data-order-id="${orderId}"][data-status="${status}"]`).waitFor({ timeout: CHAIN_MS });

describe.skipIf('missing' in browserAt)('trading on the market web page in Chromium', () => {
  beforeAll(async () => {
    if (!('path' in browserAt)) return;
    pages = await LiveDevnetPages.start(browserAt.path);
  }, 240_000);

  afterAll(async () => {
    await pages?.close();
  });

  // One user's session, step by step: each step starts where the one before left the page.
  it('generates a devnet key in the page and logs in once it is funded', async () => {
    page = await pages.open('/#/market/1');
    // Chromium here has no wallet extension: the page says so.
    await page.getByTestId('connect-wallet').click();
    await page.getByText('No browser wallet found').waitFor({ timeout: 5_000 });
    await page.getByTestId('generate-key').click();
    address = (await page.getByTestId('account-address').textContent()) ?? '';
    expect(address).toMatch(/^0x[0-9a-f]{40}$/);
    await fund(address);
    await page.getByTestId('login').click();
    await page.getByTestId('logout').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('account-address').textContent()).toBe(address);
    // account fund onboards the account: both tokens approved to Permit2 and the reactor inside it.
    await page.locator('[data-testid="onboarding"][data-complete="true"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-testid="onboarding-token"] td[data-done="true"]').count()).toBe(6);
  }, 60_000);

  it('follows /ws/depth once logged in, row for row as GET /depth', async () => {
    await page.locator('.panel-ladder[data-source="stream"] [data-testid="ladder"]').waitFor({ timeout: 15_000 });
    await expectLadderFollowsApi(page, () => json<Depth>('/depth/1'), 3, STREAM_LAG_MS);
  }, 40_000);

  it('rests a buy typed off the grid, shows it in the ladder and open orders, and cancels it', async () => {
    awayPrice = half((await json<Depth>('/depth/1')).bids[0]?.[0] ?? '');
    const restingId = await placeLimitBuy(page, awayPrice, '100');
    const resting = page.locator(`[data-testid="open-order"][data-order-id="${restingId}"]`);
    await resting.waitFor({ timeout: 15_000 });
    expect(await resting.getAttribute('data-status')).toBe('open');
    const price = (await resting.locator('td').nth(1).textContent()) ?? '';
    await until(
      async () => {
        const row = (await readLadder(page)).rows.find(
          (level) => level.side === 'bid' && compareDecimals(level.price, price) === 0,
        );
        return row !== undefined && Number(row.size) >= 100 ? row : undefined;
      },
      `a bid of at least 100 at ${price} in the ladder`,
      10_000,
      100,
    );
    await page.screenshot({ path: `${SCREENSHOTS}trading.png`, fullPage: true });
    // Cancel pending while the chain confirms, then ended as cancelled.
    await resting.getByTestId('cancel-order').click();
    await endedAs(page, restingId, 'cancelled');
    await resting.waitFor({ state: 'detached', timeout: 10_000 });
  }, 60_000);

  it('cancels every open order with Cancel all', async () => {
    const both = [await placeLimitBuy(page, awayPrice, '100'), await placeLimitBuy(page, awayPrice, '110')];
    for (const id of both) await page.locator(`[data-testid="open-order"][data-order-id="${id}"]`).waitFor({ timeout: 15_000 });
    await page.getByTestId('cancel-all').click();
    for (const id of both) await endedAs(page, id, 'cancelled');
  }, 60_000);

  it('sells at market: filled in the history, its trade on the tape', async () => {
    // The radios draw as their labels (a segmented control): a user clicks the label.
    const form = page.getByTestId('order-form');
    await form.getByText('Market', { exact: true }).click();
    await form.getByText(/^Sell /).click();
    const marketId = await placeOrder(page, (fields) => fields.getByLabel(/^Size/).fill('10'));
    await endedAs(page, marketId, 'filled');
    const fills = page.locator(`[data-testid="history-order"][data-order-id="${marketId}"] [data-testid="order-fills"]`);
    await fills.waitFor({ timeout: 10_000 });
    const tradeId = ((await fills.getAttribute('data-trade-ids')) ?? '').split(' ')[0];
    await page.locator(`[data-testid="trade"][data-trade-id="${tradeId}"]`).waitFor({ timeout: 10_000 });
  }, 60_000);

  it('fits a phone logged in, and keeps the key after logout until it is forgotten', async () => {
    await page.setViewportSize(PHONE);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `${SCREENSHOTS}trading-phone.png`, fullPage: true });
    await page.getByTestId('logout').click();
    await page.reload();
    await page.getByTestId('login').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('account-address').textContent()).toBe(address);
    await page.getByRole('button', { name: 'Forget key' }).click();
    await page.getByTestId('generate-key').waitFor({ timeout: 5_000 });
    expect(await page.evaluate<string | null>('localStorage.getItem("dex.devnet-key")')).toBeNull();
    await page.close();
  }, 30_000);

  it('onboards a browser wallet funded without approvals from the onboarding panel, and it then trades', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await operatorCli(pages.service.dataDir, ['account', 'fund', '--account', account.address, '--no-approve']);
    const methods: string[] = [];
    const chain = await devnetChainRecord(pages.service.dataDir);
    const walletPage = await pages.open('/#/market/1', {
      beforeLoad: (opened) => injectDevnetWallet(opened, account, chain, methods),
    });
    await walletPage.getByTestId('connect-wallet').click();
    await walletPage.getByTestId('logout').waitFor({ timeout: 15_000 });
    const panel = walletPage.locator('[data-testid="onboarding"][data-complete="false"]');
    await panel.waitFor({ timeout: 15_000 });
    const pending = panel.locator('td[data-done="false"]');
    expect(await pending.evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-step')))).toEqual([
      'approveBaseTokenPermit2',
      'approveBaseTokenReactor',
      'approveQuoteTokenPermit2',
      'approveQuoteTokenReactor',
    ]);
    await walletPage.screenshot({ path: `${SCREENSHOTS}onboarding.png`, fullPage: true });
    await panel.getByTestId('onboard').click();
    await walletPage.locator('[data-testid="onboarding"][data-complete="true"]').waitFor({ timeout: CHAIN_MS });
    expect(methods.filter((method) => method === 'eth_sendTransaction')).toHaveLength(4);
    const orderId = await placeLimitBuy(walletPage, awayPrice, '10');
    await walletPage.locator(`[data-testid="open-order"][data-order-id="${orderId}"]`).waitFor({ timeout: 15_000 });
    await walletPage.close();
  }, 90_000);

  it('logged no console error and threw nothing on any page', () => {
    expect(pages.errors).toEqual([]);
  });
});
