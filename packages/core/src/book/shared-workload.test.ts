import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateWorkload, sharedDir } from '../../../../bench/workload.js';
import { MatchingEngine } from './matching-engine.js';
import type { Side } from './types.js';

const shared = sharedDir();
if (!shared) console.warn('[skip] ../shared is absent: the shared matching workloads are not checked (set SHARED_DIR)');

describe.skipIf(!shared)('shared matching workloads', () => {
  it.each(['steady', 'deep'] as const)("reproduces the generator's fill and resting counts on the %s workload", (kind) => {
    const { summary, records } = generateWorkload(join(shared as string, 'bench/matching-workload.cjs'), kind, 200_000);
    let fills = 0;
    const engine = new MatchingEngine((event) => {
      if (event.type === 'fill') fills++;
    });
    for (let offset = 0; offset < records.length; offset += 5) {
      const id = records[offset + 1] as number;
      if (records[offset] === 0) {
        engine.place({
          id,
          side: records[offset + 2] as Side,
          price: records[offset + 3] as number,
          quantity: records[offset + 4] as number,
          timeInForce: 'GTC',
          makerOnly: false,
          takerOnce: false,
          time: offset,
        });
      } else {
        engine.cancel(id, 'USER', offset);
      }
    }
    expect({ fills, resting: engine.openOrderCount }).toEqual({ fills: summary.fills, resting: summary.finalResting });
  });
});
