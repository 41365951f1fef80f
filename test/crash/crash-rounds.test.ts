import { describe, expect, it } from 'vitest';
import { formatReport, runCrashRounds } from './crash-rounds.js';

describe('kill -9 under a mixed load', () => {
  it('loses no acknowledged order, settles every fill once or reverts it visibly, and drains within 30 s: one round of each kind', async () => {
    const report = await runCrashRounds({ rounds: 3, kinds: ['service', 'node', 'both'] });
    console.log(formatReport(report));
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ lost: 0, doubleSettled: 0, stalled: 0, otherFaults: 0 });
    expect(report.acknowledgedOrders).toBeGreaterThan(0);
    expect(report.trades).toBeGreaterThan(0);
    expect(report.swaps).toBeGreaterThan(0);
  }, 600_000);
});
