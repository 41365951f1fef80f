/** The market page's order form, as a user fills it in: what the browser suites share. */
import type { Locator, Page } from 'playwright-core';
import { formatExact, parseExact } from '../../packages/web/src/decimal.js';

/** Half of a price, exactly (one digit longer): typed as is, the page snaps it onto the tick grid. */
export function half(decimal: string): string {
  const { units, scale } = parseExact(decimal);
  return formatExact({ units: units * 5n, scale: scale + 1 });
}

/**
 * Fills the form, places the order and returns its id once the page shows it placed; fails with
 * the page's own message when it shows the placing failed (rather than waiting out the bound).
 */
export async function placeOrder(page: Page, fill: (form: Locator) => Promise<void>): Promise<string> {
  const form = page.getByTestId('order-form');
  await fill(form);
  const result = page.getByTestId('order-result');
  // The result of the order before stays shown until the page takes this one.
  const before =
    (await result
      .locator('[data-order-id]')
      .getAttribute('data-order-id', { timeout: 1 })
      .catch(() => null)) ?? '';
  await form.getByTestId('place-order').click();
  const placed = result.locator(`[data-order-id]:not([data-order-id="${before}"])`);
  const failed = page.locator('[data-testid="order-result"][data-state="failed"]');
  await placed.or(failed).waitFor({ timeout: 20_000 });
  if (await failed.isVisible()) throw new Error(`the page failed to place the order: ${await failed.textContent()}`);
  return (await placed.getAttribute('data-order-id')) ?? '';
}

export const placeLimitBuy = (on: Page, price: string, size: string) =>
  placeOrder(on, async (form) => {
    await form.getByLabel(/^Price/).fill(price);
    await form.getByLabel(/^Size/).fill(size);
  });
