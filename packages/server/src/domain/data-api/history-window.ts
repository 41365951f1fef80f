import { AppError } from '../errors.js';
import { single } from '../query-values.js';

/** Bucket widths; MINUTE serves only the native coin's price history, which no `interval` parameter names. */
export type Interval = 'MINUTE' | 'FIVEMIN' | 'HOUR' | 'DAY' | 'WEEK';

/** The intervals of every candle route (tokens and pools). */
export const CANDLE_INTERVALS: readonly Interval[] = ['FIVEMIN', 'HOUR', 'DAY', 'WEEK'];

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const INTERVAL_MS: Readonly<Record<Interval, number>> = {
  MINUTE: MINUTE_MS,
  FIVEMIN: 5 * MINUTE_MS,
  HOUR: 60 * MINUTE_MS,
  DAY: DAY_MS,
  WEEK: 7 * DAY_MS,
};

/** Weeks start on Monday 00:00 UTC; unix time began on a Thursday. */
const WEEK_OFFSET_MS = 4 * DAY_MS;

/** Most buckets one history request may span (FIVEMIN: about five weeks), a bound against abuse. */
export const MAX_BUCKETS = 10_000;

/** Most minutes of the native coin's price history one request may span: a week, 10,080 points. */
export const MAX_MINUTES = 7 * 24 * 60;

/** The start (unix ms) of the bucket of `interval` that holds `ms`; from FIVEMIN up, every bucket is whole 5-minute candles. */
export function bucketStart(ms: number, interval: Interval): number {
  const width = INTERVAL_MS[interval];
  const offset = interval === 'WEEK' ? WEEK_OFFSET_MS : 0;
  return ms - ((((ms - offset) % width) + width) % width);
}

/** A span of whole buckets: every bucket that overlaps [from, to]. */
export interface HistoryWindow {
  readonly interval: Interval;
  /** Start of the first bucket, unix ms. */
  readonly startMs: number;
  /** End of the last bucket (exclusive), unix ms. */
  readonly endMs: number;
}

export function windowOf(fromMs: number, toMs: number, interval: Interval): HistoryWindow {
  return { interval, startMs: bucketStart(fromMs, interval), endMs: bucketStart(toMs, interval) + INTERVAL_MS[interval] };
}

/** Unix seconds as the history routes take them: a plain whole number. */
const SECONDS = /^(0|[1-9][0-9]{0,11})$/;

/** Unix seconds as unix ms; absent or empty is undefined. */
function optionalSeconds(value: string | string[] | undefined, name: string): number | undefined {
  const text = single(value, name);
  if (text === undefined || text === '') return undefined;
  if (!SECONDS.test(text)) throw new AppError('INVALID_TIME_RANGE', `${name} must be unix seconds, a whole number`);
  return Number(text) * 1_000;
}

function seconds(value: string | string[] | undefined, name: string): number {
  const ms = optionalSeconds(value, name);
  if (ms === undefined) throw new AppError('MISSING_PARAMETER', `${name} is required (unix seconds)`);
  return ms;
}

export function parseInterval(value: string | string[] | undefined, allowed: readonly Interval[], fallback?: Interval): Interval {
  const text = single(value, 'interval');
  if (text === undefined || text === '') {
    if (fallback !== undefined) return fallback;
    throw new AppError('MISSING_PARAMETER', `interval is required (${allowed.join(', ')})`);
  }
  const interval = allowed.find((candidate) => candidate === text);
  if (interval === undefined) throw new AppError('INVALID_INTERVAL', `interval must be one of ${allowed.join(', ')}`);
  return interval;
}

export interface HistoryQuery {
  readonly from?: string | string[];
  readonly to?: string | string[];
  readonly interval?: string | string[];
}

/** `from`, `to` (unix seconds, from <= to) and `interval` of a history route, as whole buckets. */
export function parseHistoryQuery(query: HistoryQuery, allowed: readonly Interval[]): HistoryWindow {
  const fromMs = seconds(query.from, 'from');
  const toMs = seconds(query.to, 'to');
  return boundedWindow(fromMs, toMs, parseInterval(query.interval, allowed));
}

/**
 * `from` and `to` (unix seconds, from <= to) of the minute-by-minute history: the minutes that
 * begin at or after `from` and before `to`, so a span of a week is 10,080 points wherever it
 * starts, and at most a week is served.
 */
export function parseMinuteQuery(query: Pick<HistoryQuery, 'from' | 'to'>): HistoryWindow {
  const fromMs = seconds(query.from, 'from');
  const toMs = seconds(query.to, 'to');
  if (fromMs > toMs) throw new AppError('INVALID_TIME_RANGE', 'from must not be after to');
  const firstMinute = (ms: number) => bucketStart(ms + MINUTE_MS - 1, 'MINUTE');
  const window: HistoryWindow = { interval: 'MINUTE', startMs: firstMinute(fromMs), endMs: firstMinute(toMs) };
  if (window.endMs - window.startMs > MAX_MINUTES * MINUTE_MS) {
    throw new AppError('INVALID_TIME_RANGE', `from and to span more than a week (${MAX_MINUTES} minutes)`);
  }
  return window;
}

/** How a route that shows recent history fills in a missing `from` and how wide it lets a window be. */
export interface RecentWindowBounds {
  /** Buckets up to `to` (the running one included) when `from` is not given. */
  readonly defaultBuckets: number;
  /** Most buckets one request may span. */
  readonly maxBuckets: number;
}

/**
 * `from`, `to` (unix seconds, from <= to, both optional) and `interval` of a route that shows
 * recent history, as whole buckets: `to` defaults to `nowMs`, `from` to the start of the
 * `defaultBuckets`-th bucket back from `to`; a window of more than `maxBuckets` is refused.
 */
export function parseRecentQuery(
  query: HistoryQuery,
  allowed: readonly Interval[],
  nowMs: number,
  bounds: RecentWindowBounds,
): HistoryWindow {
  const from = optionalSeconds(query.from, 'from');
  const toMs = optionalSeconds(query.to, 'to') ?? nowMs;
  const interval = parseInterval(query.interval, allowed);
  const fromMs = from ?? Math.max(0, toMs - (bounds.defaultBuckets - 1) * INTERVAL_MS[interval]);
  return boundedWindow(fromMs, toMs, interval, bounds.maxBuckets);
}

function boundedWindow(fromMs: number, toMs: number, interval: Interval, maxBuckets = MAX_BUCKETS): HistoryWindow {
  if (fromMs > toMs) throw new AppError('INVALID_TIME_RANGE', 'from must not be after to');
  const window = windowOf(fromMs, toMs, interval);
  if ((window.endMs - window.startMs) / INTERVAL_MS[interval] > maxBuckets) {
    throw new AppError('INVALID_TIME_RANGE', `from and to span more than ${maxBuckets} intervals of ${interval}`);
  }
  return window;
}
