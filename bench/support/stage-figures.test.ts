import { describe, expect, it } from 'vitest';
import { readHistogram, readLoopDelay, stageRows } from './stage-figures.js';

/** A histogram as prom-client writes it, with `funds` observed `observations` times at 2 ms and once at 40 ms. */
function exposition(observations: number, slow: number): string {
  const count = observations + slow;
  return [
    '# HELP dex_order_save_stage_seconds Time each stage took',
    '# TYPE dex_order_save_stage_seconds histogram',
    `dex_order_save_stage_seconds_bucket{le="0.001",stage="funds"} 0`,
    `dex_order_save_stage_seconds_bucket{le="0.0025",stage="funds"} ${observations}`,
    `dex_order_save_stage_seconds_bucket{le="0.05",stage="funds"} ${count}`,
    `dex_order_save_stage_seconds_bucket{le="+Inf",stage="funds"} ${count}`,
    `dex_order_save_stage_seconds_sum{stage="funds"} ${observations * 0.002 + slow * 0.04}`,
    `dex_order_save_stage_seconds_count{stage="funds"} ${count}`,
    'dex_store_commit_seconds_count 7',
  ].join('\n');
}

describe('the stage figures of bench:latency', () => {
  it('reads a histogram by label and gives what happened between two readings', () => {
    const before = readHistogram(exposition(10, 0), 'dex_order_save_stage_seconds', 'stage');
    const after = readHistogram(exposition(108, 2), 'dex_order_save_stage_seconds', 'stage');
    const [row] = stageRows('save:', before, after, ['check', 'funds']);
    expect(row).toEqual({ part: 'save: funds', count: 100, meanMs: '2.76', p50Ms: '<= 2.50', p99Ms: '<= 50.00' });
  });

  it('leaves out a stage that saw nothing in the level', () => {
    const reading = readHistogram(exposition(10, 0), 'dex_order_save_stage_seconds', 'stage');
    expect(stageRows('save:', reading, reading, ['funds'])).toEqual([]);
  });

  it("reads the event loop's delay gauges without their 10 ms sampling interval", () => {
    const gauges = [
      '# TYPE nodejs_eventloop_lag_mean_seconds gauge',
      'nodejs_eventloop_lag_mean_seconds 0.0105',
      'nodejs_eventloop_lag_p50_seconds 0.010141055',
      'nodejs_eventloop_lag_p90_seconds 0.0112',
      'nodejs_eventloop_lag_p99_seconds 0.016',
      'nodejs_eventloop_lag_max_seconds 0.0596',
      'nodejs_eventloop_lag_min_seconds 0.0099',
    ].join('\n');
    const delay = readLoopDelay(gauges);
    expect(delay?.p99).toBeCloseTo(0.006, 9);
    expect(delay?.max).toBeCloseTo(0.0496, 9);
    expect(delay?.mean).toBeCloseTo(0.0005, 9);
    expect(readLoopDelay(exposition(1, 0))).toBeNull();
  });
});
