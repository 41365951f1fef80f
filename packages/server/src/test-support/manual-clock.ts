import type { Clock } from '../ports/clock.js';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(public time = Date.UTC(2026, 10, 22, 12, 0, 0)) {}

  now(): number {
    return this.time;
  }

  advance(ms: number): void {
    this.time += ms;
  }

  /** Steps the clock back, as an NTP correction of a clock that ran ahead does. */
  rewind(ms: number): void {
    this.time -= ms;
  }
}

/** The harness's clock following the real time, as main.ts runs: chain blocks, deadlines, caches and rate limits all agree. */
export class RealTimeClock extends ManualClock {
  override now(): number {
    return Date.now();
  }
}
