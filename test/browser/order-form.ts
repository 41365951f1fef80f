/** The market page's order form, as a user fills it in: what the browser suites share. */
import type { Locator, Page } from 'playwright-core';
import { formatExact, parseExact } from '../../packages/web/src/decimal.js';

/** Half of a price, exactly (one digit longer): typed as is, the page snaps it onto the tick grid. */
export function half(decimal: string): string {
  const { units, scale } = parseExact(decimal);
  return formatExact({ units: units * 5n, scale: scale + 1 });
}

/** Fills the form, places the order and returns its id once the page shows it placed. */
export async function placeOrder(page: Page, fill: (form: Locator) => Promise<void>): Promise<string> {
  const form = page.getByTestId('order-form');
  await fill(form);
  await form.getByTestId('place-order').click();
  const placed = page.getByTestId('order-result').locator('[data-order-id]');
  await placed.waitFor({ timeout: 20_000 });
  return (await placed.getAttribute('data-order-id')) ?? '';
}

export const placeLimitBuy = (on: Page, price: string, size: string) =>
  placeOrder(on, async (form) => {
    await form.getByLabel(/^Price/).fill(price);
    await form.getByLabel(/^Size/).fill(size);
  });
