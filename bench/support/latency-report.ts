/** The tables of bench:latency: per concurrency level, each measure by key kind against its floor, then the floors. */
import type { KeyKind } from './accounts.js';
import type { BodySizes } from './bare-http.js';
import {
  durable,
  floorOf,
  judge,
  type LatencySamples,
  MEASURES,
  type Measure,
  type Spread,
  spreadOf,
  TARGET_MULTIPLE,
} from './latency-samples.js';
import { fineMillis, printTable, tenths, verdict, whole } from './report.js';

const KINDS: readonly KeyKind[] = ['secp256k1', 'ed25519'];

/** What one concurrency level measured, and its floors measured right after it. */
export interface LevelFigures {
  readonly clients: number;
  readonly samples: LatencySamples;
  readonly roundTrips: ReadonlyMap<Measure, { readonly sizes: BodySizes; readonly spread: Spread }>;
  readonly fdatasync: Spread;
  /** Wall seconds of the level's requests, from the first sent to the last answered. */
  readonly seconds: number;
}

/** Each verdict of the level, for the summary line. */
export interface LevelVerdicts {
  readonly passed: number;
  readonly judged: number;
}

const ms = (value: number) => fineMillis.format(value);
const times = (value: number) => `${tenths.format(value)}x`;

function targetText(measure: Measure): string {
  return `${durable(measure) ? 'p50, p99' : 'p99'} <= ${TARGET_MULTIPLE}x`;
}

function floorRows(level: LevelFigures): string[][] {
  const rows = MEASURES.map((measure) => {
    const trip = level.roundTrips.get(measure);
    if (trip === undefined) return [];
    const { sizes, spread } = trip;
    const what = `bare round trip for ${measure} (${sizes.request} B in, ${sizes.answer} B out)`;
    return [what, '', whole.format(spread.count), ms(spread.p50), ms(spread.p99), ms(spread.max)];
  });
  const sync = level.fdatasync;
  return [...rows, ['fdatasync of 4 KiB', '', whole.format(sync.count), ms(sync.p50), ms(sync.p99), ms(sync.max)]].filter(
    (row) => row.length > 0,
  );
}

/** Prints the level's tables; returns how many of its rows met their target. */
export function printLevel(level: LevelFigures): LevelVerdicts {
  let passed = 0;
  let judged = 0;
  const rows: string[][] = [];
  for (const measure of MEASURES) {
    const trip = level.roundTrips.get(measure);
    if (trip === undefined) continue;
    const floor = floorOf(measure, trip.spread, level.fdatasync);
    for (const kind of KINDS) {
      const sorted = level.samples.sorted(measure, kind);
      if (sorted.length === 0) continue;
      const spread = spreadOf(sorted);
      const result = judge(measure, spread, floor);
      judged++;
      if (result.passed) passed++;
      rows.push([
        measure,
        kind,
        whole.format(spread.count),
        ms(spread.p50),
        ms(spread.p99),
        ms(spread.max),
        ms(floor.p50),
        ms(floor.p99),
        times(result.ratioP50),
        times(result.ratioP99),
        targetText(measure),
        verdict(result.passed),
      ]);
    }
  }
  const requests = MEASURES.reduce((sum, measure) => sum + level.samples.count(measure), 0);
  console.log(
    `\n${level.clients} client${level.clients === 1 ? '' : 's'} at once: ${whole.format(requests)} requests in ` +
      `${tenths.format(level.seconds)} s (${whole.format(requests / level.seconds)}/s)`,
  );
  printTable(
    ['measure', 'key', 'n', 'p50 ms', 'p99 ms', 'max ms', 'floor p50', 'floor p99', 'x p50', 'x p99', 'target', ''],
    rows,
    2,
  );
  console.log('');
  printTable(['floor', '', 'n', 'p50 ms', 'p99 ms', 'max ms'], floorRows(level), 2);
  return { passed, judged };
}
