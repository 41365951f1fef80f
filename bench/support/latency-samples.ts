/**
 * The figures of bench:latency: each request's time by measure and key kind, the sizes of its
 * bodies (which the round-trip floor repeats), and the targets of issue 41 against the floors.
 */
import type { KeyKind } from './accounts.js';
import type { BodySizes } from './bare-http.js';
import { percentile } from './report.js';

export const MEASURES = ['build', 'save resting', 'save crossing', 'cancel', 'cancel/all'] as const;
export type Measure = (typeof MEASURES)[number];

/** A save is acknowledged once it is durable: its floor adds an fdatasync to the round trip. */
export function durable(measure: Measure): boolean {
  return measure === 'save resting' || measure === 'save crossing';
}

/** Issue 41's targets: at most this many times the floor. */
export const TARGET_MULTIPLE = 3;

export interface Spread {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export function spreadOf(sorted: readonly number[]): Spread {
  return { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: percentile(sorted, 1) };
}

/** A measure's floor at p50 and p99: the round trip with its body sizes, plus an fdatasync for a save. */
export function floorOf(measure: Measure, roundTrip: Spread, fdatasync: Spread): { p50: number; p99: number } {
  const sync = durable(measure) ? fdatasync : { p50: 0, p99: 0 };
  return { p50: roundTrip.p50 + sync.p50, p99: roundTrip.p99 + sync.p99 };
}

export interface Verdict {
  readonly ratioP50: number;
  readonly ratioP99: number;
  /** Saves: p50 and p99 within TARGET_MULTIPLE of the floor; the others: p99 alone (what a market maker's risk feels). */
  readonly passed: boolean;
}

export function judge(measure: Measure, measured: Spread, floor: { p50: number; p99: number }): Verdict {
  const ratioP50 = measured.p50 / floor.p50;
  const ratioP99 = measured.p99 / floor.p99;
  const passed = ratioP99 <= TARGET_MULTIPLE && (!durable(measure) || ratioP50 <= TARGET_MULTIPLE);
  return { ratioP50, ratioP99, passed };
}

/** What a level's clients measured: each request's milliseconds and body sizes. */
export class LatencySamples {
  private readonly times = new Map<string, number[]>();
  private readonly bytes = new Map<Measure, { request: number; answer: number; count: number }>();

  record(measure: Measure, kind: KeyKind, milliseconds: number, requestBytes: number, answerBytes: number): void {
    const key = `${measure} ${kind}`;
    const times = this.times.get(key) ?? [];
    times.push(milliseconds);
    this.times.set(key, times);
    const sizes = this.bytes.get(measure) ?? { request: 0, answer: 0, count: 0 };
    this.bytes.set(measure, {
      request: sizes.request + requestBytes,
      answer: sizes.answer + answerBytes,
      count: sizes.count + 1,
    });
  }

  /** The measure's milliseconds, sorted, of one key kind. */
  sorted(measure: Measure, kind: KeyKind): number[] {
    return [...(this.times.get(`${measure} ${kind}`) ?? [])].sort((a, b) => a - b);
  }

  count(measure: Measure): number {
    return this.bytes.get(measure)?.count ?? 0;
  }

  /** The measure's mean body sizes, rounded to whole bytes. */
  sizes(measure: Measure): BodySizes {
    const sizes = this.bytes.get(measure);
    if (sizes === undefined) throw new Error(`no ${measure} was measured`);
    return { request: Math.round(sizes.request / sizes.count), answer: Math.round(sizes.answer / sizes.count) };
  }
}
