/** A calendar month in UTC: quotas count per month and reset when the next one starts. */
export interface UtcMonth {
  /** Unix ms of its first instant. */
  readonly start: number;
  /** Unix ms of the first instant of the next month: when the month's quota resets. */
  readonly end: number;
}

/** The UTC month holding an instant (unix ms). */
export function monthOf(ms: number): UtcMonth {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}
