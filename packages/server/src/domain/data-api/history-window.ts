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

/** Most buckets one history request may span (MINUTE: about a week; FIVEMIN: about five weeks), a bound against abuse. */
export const MAX_BUCKETS = 10_000;

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

function seconds(value: string | string[] | undefined, name: string): number {
  const text = single(value, name);
  if (text === undefined || text === '') throw new AppError('MISSING_PARAMETER', `${name} is required (unix seconds)`);
  if (!SECONDS.test(text)) throw new AppError('INVALID_TIME_RANGE', `${name} must be unix seconds, a whole number`);
  return Number(text) * 1_000;
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

/** `from` and `to` (unix seconds, from <= to) of the minute-by-minute history, as whole minutes. */
export function parseMinuteQuery(query: Pick<HistoryQuery, 'from' | 'to'>): HistoryWindow {
  return boundedWindow(seconds(query.from, 'from'), seconds(query.to, 'to'), 'MINUTE');
}

function boundedWindow(fromMs: number, toMs: number, interval: Interval): HistoryWindow {
  if (fromMs > toMs) throw new AppError('INVALID_TIME_RANGE', 'from must not be after to');
  const window = windowOf(fromMs, toMs, interval);
  if ((window.endMs - window.startMs) / INTERVAL_MS[interval] > MAX_BUCKETS) {
    throw new AppError('INVALID_TIME_RANGE', `from and to span more than ${MAX_BUCKETS} intervals of ${interval}`);
  }
  return window;
}
