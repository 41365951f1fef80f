import { type HistoryWindow, INTERVAL_MS, type Interval, windowOf } from './history-window.js';

/** The published periods of the price/volume/liquidity routes (`/tokens/daily`, `/pools/weekly/{id}`...). */
export type Period = 'daily' | 'weekly' | 'monthly' | 'yearly';

/** Each period's series: its resolution and how many buckets it spans, the running one last. */
const PERIODS: Readonly<Record<Period, { readonly interval: Interval; readonly buckets: number }>> = {
  daily: { interval: 'HOUR', buckets: 24 },
  weekly: { interval: 'HOUR', buckets: 7 * 24 },
  monthly: { interval: 'DAY', buckets: 30 },
  yearly: { interval: 'DAY', buckets: 365 },
};

export const PERIOD_NAMES = Object.keys(PERIODS) as Period[];

/** The buckets of a period that ends with the one running at `nowMs`. */
export function periodWindow(period: Period, nowMs: number): HistoryWindow {
  const { interval, buckets } = PERIODS[period];
  return windowOf(nowMs - (buckets - 1) * INTERVAL_MS[interval], nowMs, interval);
}
