import { until } from '@dex/server/test-support';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Depth } from './live-devnet-pages.js';

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

/** A depth snapshot's levels in the order {@link readLadder} gives the page's. */
export function apiRows(depth: Depth): LadderRow[] {
  return [
    ...depth.asks.map(([price, size]) => ({ side: 'ask' as const, price, size })),
    ...depth.bids.map(([price, size]) => ({ side: 'bid' as const, price, size })),
  ];
}

/**
 * `snapshots` different depth snapshots, each asked of the API first and then awaited on the page:
 * the ladder must reach each one within `maxLagMs` and, when it shows that very update (a newer one
 * may have landed meanwhile), equal it row for row.
 */
export async function expectLadderFollowsApi(
  page: Page,
  depthNow: () => Promise<Depth>,
  snapshots: number,
  maxLagMs: number,
): Promise<void> {
  const seen = new Set<number>();
  const deadline = Date.now() + 60_000;
  while (seen.size < snapshots && Date.now() < deadline) {
    const depth = await depthNow();
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
      maxLagMs + 2_000,
      25,
    );
    expect(Date.now() - asked, `update ${depth.lastUpdateId} reached the ladder late`).toBeLessThanOrEqual(maxLagMs);
    if (shown.updateId === depth.lastUpdateId) {
      expect(shown.rows).toEqual(apiRows(depth));
      seen.add(depth.lastUpdateId);
    }
  }
  expect(seen.size).toBe(snapshots);
}
