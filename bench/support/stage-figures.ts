/**
 * Where a save's time goes, from the service's own histograms (`dex_order_save_stage_seconds` by
 * stage, `dex_desk_turn_seconds` by phase): read before and after a level, the difference is the
 * level's. Means are exact (sum over count); p50 and p99 are the upper bounds of the buckets they
 * fall in, so they read "at most".
 */
import { printTable } from './report.js';

/** One labelled series of a histogram: cumulative bucket counts by upper bound, sum and count. */
interface Series {
  readonly buckets: Map<number, number>;
  sum: number;
  count: number;
}

export type HistogramSeries = ReadonlyMap<string, Series>;

const SAMPLE = /^(\w+?)(_bucket|_sum|_count)(?:\{([^}]*)\})? (\S+)$/;

/**
 * The series of histogram `name` in a Prometheus text exposition, keyed by the value of `label`
 * (without a label: one series, keyed by `name`).
 */
export function readHistogram(text: string, name: string, label?: string): HistogramSeries {
  const series = new Map<string, Series>();
  for (const line of text.split('\n')) {
    const sample = SAMPLE.exec(line);
    if (sample === null || sample[1] !== name) continue;
    const [, , part, labels = '', value = '0'] = sample;
    const labelValue = label === undefined ? name : new RegExp(`${label}="([^"]*)"`).exec(labels)?.[1];
    if (labelValue === undefined) continue;
    let entry = series.get(labelValue);
    if (entry === undefined) {
      entry = { buckets: new Map(), sum: 0, count: 0 };
      series.set(labelValue, entry);
    }
    if (part === '_sum') entry.sum = Number(value);
    else if (part === '_count') entry.count = Number(value);
    else {
      const bound = /le="([^"]*)"/.exec(labels)?.[1] ?? '+Inf';
      entry.buckets.set(bound === '+Inf' ? Number.POSITIVE_INFINITY : Number(bound), Number(value));
    }
  }
  return series;
}

/** What happened between two readings of one series. */
function between(before: Series | undefined, after: Series): Series {
  const buckets = new Map([...after.buckets].map(([bound, count]) => [bound, count - (before?.buckets.get(bound) ?? 0)]));
  return { buckets, sum: after.sum - (before?.sum ?? 0), count: after.count - (before?.count ?? 0) };
}

/** The upper bound (seconds) of the bucket the `share` quantile falls in. */
function bucketQuantile(series: Series, share: number): number {
  const wanted = share * series.count;
  for (const [bound, count] of [...series.buckets].sort((a, b) => a[0] - b[0])) if (count >= wanted) return bound;
  return Number.POSITIVE_INFINITY;
}

const ms = (seconds: number) => (Number.isFinite(seconds) ? (seconds * 1000).toFixed(2) : 'inf');

export interface StageRow {
  readonly part: string;
  readonly count: number;
  readonly meanMs: string;
  readonly p50Ms: string;
  readonly p99Ms: string;
}

/** One row per label value present in `after`, in `order`, for what happened since `before`. */
export function stageRows(prefix: string, before: HistogramSeries, after: HistogramSeries, order: readonly string[]): StageRow[] {
  return order.flatMap((key) => {
    const now = after.get(key);
    if (now === undefined) return [];
    const level = between(before.get(key), now);
    if (level.count === 0) return [];
    return [
      {
        part: `${prefix} ${key}`,
        count: level.count,
        meanMs: ms(level.sum / level.count),
        p50Ms: `<= ${ms(bucketQuantile(level, 0.5))}`,
        p99Ms: `<= ${ms(bucketQuantile(level, 0.99))}`,
      },
    ];
  });
}

export const SAVE_STAGES = ['check', 'deduplicate', 'verify', 'funds', 'desk'] as const;
export const TURN_PHASES = ['waited', 'ran', 'stored'] as const;

/**
 * How late the service's event loop ran a timer, in seconds beyond its interval, from prom-client's
 * `nodejs_eventloop_lag_*` gauges: a scrape reports what its monitorEventLoopDelay saw since the
 * scrape before (it resets it), so the reading after a level covers the level.
 */
export interface LoopDelay {
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** The service's metrics text at one moment: the save stages, the desk's turn phases and the event loop's delay. */
export interface StageReading {
  readonly stages: HistogramSeries;
  readonly turns: HistogramSeries;
  readonly commits: HistogramSeries;
  readonly loopDelay: LoopDelay | null;
}

/** prom-client's sampling interval of the event loop (its eventLoopMonitoringPrecision, which the service leaves at the default). */
const LOOP_SAMPLE_SECONDS = 0.01;

/** The event loop's delay gauges, the sampling interval taken off; null when the text has none. */
export function readLoopDelay(text: string): LoopDelay | null {
  const gauge = (name: string): number | null => {
    const value = new RegExp(`^nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1];
    return value === undefined ? null : Math.max(0, Number(value) - LOOP_SAMPLE_SECONDS);
  };
  const values = ['mean', 'p50', 'p90', 'p99', 'max'].map(gauge);
  if (values.some((value) => value === null)) return null;
  const [mean, p50, p90, p99, max] = values as [number, number, number, number, number];
  return { mean, p50, p90, p99, max };
}

const COMMITS = 'dex_store_commit_seconds';

export function readStages(text: string): StageReading {
  return {
    stages: readHistogram(text, 'dex_order_save_stage_seconds', 'stage'),
    turns: readHistogram(text, 'dex_desk_turn_seconds', 'phase'),
    commits: readHistogram(text, COMMITS),
    loopDelay: readLoopDelay(text),
  };
}

/** Prints where the level's saves spent their time inside the service, and where its desk turns did. */
export function printStages(before: StageReading, after: StageReading): void {
  const rows = [
    ...stageRows('save:', before.stages, after.stages, SAVE_STAGES),
    ...stageRows('desk turn:', before.turns, after.turns, TURN_PHASES),
    ...stageRows('desk commit group:', before.commits, after.commits, [COMMITS]).map((row) => ({
      ...row,
      part: 'desk commit group: store',
    })),
  ];
  if (rows.length === 0) return;
  console.log('\ninside the service (its histograms; a desk turn is any save, cancel or settlement turn):');
  printTable(
    ['part', 'n', 'mean ms', 'p50 ms', 'p99 ms'],
    rows.map((row) => [row.part, String(row.count), row.meanMs, row.p50Ms, row.p99Ms]),
  );
  const delay = after.loopDelay;
  if (delay !== null) {
    console.log(
      `event loop delay while the level ran (sampled every ${LOOP_SAMPLE_SECONDS * 1000} ms, beyond the interval): ` +
        `mean ${ms(delay.mean)} ms, p50 ${ms(delay.p50)}, p90 ${ms(delay.p90)}, p99 ${ms(delay.p99)}, max ${ms(delay.max)}`,
    );
  }
}
