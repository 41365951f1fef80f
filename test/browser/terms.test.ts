import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from './chromium.js';
import { type Depth, LiveDevnetPages, SCREENSHOTS } from './live-devnet-pages.js';
import { operatorCli } from './operator-process.js';
import { half, placeLimitBuy } from './order-form.js';

const browserAt = ensureChromium();
if ('missing' in browserAt) console.warn(`browser tests skipped: ${browserAt.missing}`);

const TERMS = {
  v1: 'Terms of service, version 1.\n\nTrading here is at your own risk.\n',
  v2: 'Terms of service, version 2.\n\nA new clause the account has not seen.\n',
};
const RISK = 'Order book risk notice.\n\nAn order may fill at once, in part, or not at all.\n';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Acceptance {
  account: string;
  document: string;
  version: string;
  textSha256: string;
  clientAddress: string | null;
}

/** The operator's texts and the service's store, in one folder that outlives each service. */
const folder = mkdtempSync(join(tmpdir(), 'dex-terms-browser-'));
const dataDir = join(folder, 'data');
const key = generatePrivateKey();
const address = privateKeyToAccount(key).address.toLowerCase();
let pages: LiveDevnetPages | undefined;
let page: Page;

/** The devnet without a chain, requiring the terms (WEB_TERMS), with this version of the terms of service. */
async function serve(version: keyof typeof TERMS): Promise<LiveDevnetPages> {
  await pages?.close();
  pages = undefined;
  writeFileSync(join(folder, `terms-${version}.txt`), TERMS[version]);
  writeFileSync(join(folder, 'risk.txt'), RISK);
  pages = await LiveDevnetPages.start((browserAt as { path: string }).path, {
    DATA_DIR: dataDir,
    CHAIN: 'off',
    WEB_TERMS: 'true',
    TERMS_OF_SERVICE_FILE: join(folder, `terms-${version}.txt`),
    TERMS_OF_SERVICE_VERSION: version,
    RISK_NOTICE_FILE: join(folder, 'risk.txt'),
    RISK_NOTICE_VERSION: 'r1',
  });
  return pages;
}

/** A fresh browser on book 1, logged in with the test's key (imported, so the account is the same after a restart). */
async function logIn(on: LiveDevnetPages): Promise<Page> {
  const opened = await on.open('/#/market/1');
  await opened.getByLabel('Or import a private key (hex)').fill(key);
  await opened.getByRole('button', { name: 'Import' }).click();
  await opened.getByTestId('login').click();
  await opened.getByTestId('logout').waitFor({ timeout: 15_000 });
  return opened;
}

const acceptances = () => operatorCli<Acceptance[]>(dataDir, ['terms', 'list', '--account', address]);
const gate = (state: string) => page.locator(`[data-testid="terms-gate"][data-state="${state}"]`);
const orderForms = () => page.getByTestId('order-form').count();

describe.skipIf('missing' in browserAt)('the terms of service and risk notice on the market web page in Chromium', () => {
  beforeAll(async () => {
    page = await logIn(await serve('v1'));
  }, 120_000);

  afterAll(async () => {
    await pages?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows both texts in full before any order form, and keeps trading closed but the market open when declined', async () => {
    await gate('asking').waitFor({ timeout: 15_000 });
    const texts = page.getByTestId('terms-text');
    expect(await texts.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-document')))).toEqual([
      'terms-of-service',
      'risk-notice',
    ]);
    expect(await texts.locator('pre').allTextContents()).toEqual([TERMS.v1, RISK]);
    expect(await orderForms()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}terms.png`, fullPage: true });
    await page.getByTestId('terms-decline').click();
    await page.getByTestId('terms-declined').waitFor({ timeout: 5_000 });
    expect(await orderForms()).toBe(0);
    await page.locator('[data-testid="ladder"]').waitFor({ timeout: 10_000 });
    expect(await acceptances()).toEqual([]);
  }, 60_000);

  it('records the acceptance on the server, then offers the order form, and the order rests on the book', async () => {
    await page.getByRole('button', { name: 'Read the texts again' }).click();
    await page.getByTestId('terms-accept').click();
    await page.getByTestId('order-form').waitFor({ timeout: 15_000 });
    expect(
      (await acceptances()).map(({ document, version, textSha256, clientAddress }) => [
        document,
        version,
        textSha256,
        clientAddress,
      ]),
    ).toEqual([
      ['risk-notice', 'r1', sha256(RISK), '127.0.0.1'],
      ['terms-of-service', 'v1', sha256(TERMS.v1), '127.0.0.1'],
    ]);
    const bid = (await (pages as LiveDevnetPages).json<Depth>('/depth/1')).bids[0]?.[0] ?? '';
    const id = await placeLimitBuy(page, half(bid), '100');
    await page.locator(`[data-testid="open-order"][data-order-id="${id}"][data-status="open"]`).waitFor({ timeout: 15_000 });
  }, 60_000);

  it('asks again, after a restart, for the text whose version changed, and only for it', async () => {
    const restarted = await serve('v2');
    page = await logIn(restarted);
    await gate('asking').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('terms-text').locator('pre').allTextContents()).toEqual([TERMS.v2]);
    expect(await orderForms()).toBe(0);
    await page.getByTestId('terms-accept').click();
    await page.getByTestId('order-form').waitFor({ timeout: 15_000 });
    expect((await acceptances()).map(({ document, version }) => `${document} ${version}`)).toEqual([
      'risk-notice r1',
      'terms-of-service v1',
      'terms-of-service v2',
    ]);
    expect(restarted.errors).toEqual([]);
  }, 120_000);
});
