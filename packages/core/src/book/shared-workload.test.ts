import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyRecord, generateWorkload, RECORD_WORDS, sharedDir } from '../../../../bench/workload.js';
import { MatchingEngine } from './matching-engine.js';

const shared = sharedDir();
if (!shared) console.warn('[skip] ../shared is absent: the shared matching workloads are not checked (set SHARED_DIR)');

describe.skipIf(!shared)('shared matching workloads', () => {
  it.each(['steady', 'deep'] as const)("reproduces the generator's fill and resting counts on the %s workload", (kind) => {
    const { summary, records } = generateWorkload(join(shared as string, 'bench/matching-workload.cjs'), kind, 200_000);
    let fills = 0;
    const engine = new MatchingEngine((event) => {
      if (event.type === 'fill') fills++;
    });
    for (let index = 0; index < records.length / RECORD_WORDS; index++) applyRecord(engine, records, index);
    expect({ fills, resting: engine.openOrderCount }).toEqual({ fills: summary.fills, resting: summary.finalResting });
  });
});
