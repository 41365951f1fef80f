import type { Page } from 'playwright-core';

export interface LadderRow {
  readonly side: 'ask' | 'bid';
  readonly price: string;
  readonly size: string;
}

export interface ShownLadder {
  /** The depth snapshot's `lastUpdateId` the ladder shows. */
  readonly updateId: number;
  /** Asks from the best one upward as the API lists them, then bids from the best one downward. */
  readonly rows: LadderRow[];
}

/**
 * The ladder as the page shows it, read from its test hooks in one go (a poll between two reads
 * would tear it). The page draws asks highest first; the API lists them best (lowest) first.
 */
export async function readLadder(page: Page): Promise<ShownLadder> {
  const shown = await page.getByTestId('ladder').evaluate((ladder) => ({
    updateId: Number(ladder.getAttribute('data-update-id')),
    rows: [...ladder.querySelectorAll('[data-testid="ladder-row"]')].map((row) => ({
      side: row.getAttribute('data-side') === 'ask' ? ('ask' as const) : ('bid' as const),
      price: row.getAttribute('data-price') ?? '',
      size: row.getAttribute('data-size') ?? '',
    })),
  }));
  const asks = shown.rows.filter((row) => row.side === 'ask').reverse();
  const bids = shown.rows.filter((row) => row.side === 'bid');
  return { updateId: shown.updateId, rows: [...asks, ...bids] };
}
