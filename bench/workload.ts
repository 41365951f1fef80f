import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MatchingEngine, Side } from '@dex/core';

/** The shared folder beside the repository (or SHARED_DIR), absent on a user's clone. */
export function sharedDir(): string | undefined {
  const candidate = process.env.SHARED_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../shared');
  return existsSync(candidate) ? candidate : undefined;
}

export interface WorkloadSummary {
  kind: string;
  ops: number;
  limits: number;
  cancels: number;
  fills: number;
  finalResting: number;
}

export interface Workload {
  summary: WorkloadSummary;
  /** Records of 5 int32: type (0 limit, 1 cancel), id, side, price in ticks, quantity in lots. */
  records: Int32Array;
}

/** Runs the shared deterministic generator and reads its output. */
export function generateWorkload(generator: string, kind: 'steady' | 'deep', ops: number): Workload {
  const folder = mkdtempSync(join(tmpdir(), 'workload-'));
  try {
    const out = join(folder, `${kind}.bin`);
    const printed = execFileSync(process.execPath, [generator, kind, String(ops), out], { encoding: 'utf8' });
    const bytes = readFileSync(out);
    const records = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    return { summary: JSON.parse(printed.trim()) as WorkloadSummary, records };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Words per record: type, id, side, price, quantity. */
export const RECORD_WORDS = 5;

/**
 * Applies record `index` to an engine, building the command object per call as the service does.
 * The record index doubles as the command's time. With `routeOdd`, odd-numbered orders opt in to
 * the book's pool (the AMM workload).
 */
export function applyRecord(engine: MatchingEngine, records: Int32Array, index: number, routeOdd = false): void {
  const offset = index * RECORD_WORDS;
  const id = records[offset + 1] as number;
  if (records[offset] === 0) {
    engine.place({
      id,
      side: records[offset + 2] as Side,
      price: BigInt(records[offset + 3] as number),
      quantity: records[offset + 4] as number,
      timeInForce: 'GTC',
      makerOnly: false,
      takerOnce: false,
      useAmm: routeOdd && (id & 1) === 1,
      time: index,
    });
  } else {
    engine.cancel(id, 'USER', index);
  }
}
