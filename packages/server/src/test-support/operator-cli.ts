import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { openSqliteStore } from '../adapters/sqlite/sqlite-store.js';
import { type OperatorChain, operatorIo } from '../composition/operator-wiring.js';
import { runOperator } from '../edges/cli/operator.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store/ports.js';
import { ManualClock } from './manual-clock.js';
import { tempDataDir } from './temp-data-dir.js';

/** A valid grid for the test tokens AAA (8 decimals) / BBB (6 decimals). */
export const GRID = ['--tick-step', '0.0001', '--size-step', '0.01', '--lot-size', '1', '--min-notional', '5'];

export interface Run {
  code: number;
  out: string;
  err: string;
}

/**
 * The operator CLI on a store, its output captured; with `chain` (the DATA_DIR of a service with a
 * devnet chain, or what operatorChain makes of a configuration), funding and the AMM through it.
 */
export function operator(store: Store, clock: Clock = new ManualClock(), chain?: string | OperatorChain) {
  return async (...argv: string[]): Promise<Run> => {
    const out: string[] = [];
    const err: string[] = [];
    const io = operatorIo({
      store,
      network: 'devnet',
      clock,
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      ...(typeof chain === 'string' ? { devnetDataDir: chain } : chain),
    });
    const code = await runOperator(argv, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}

/** A fresh store in a temporary folder for every test of the calling describe, with an operator on it. */
export interface OperatorFixture {
  store: Store;
  run: ReturnType<typeof operator>;
  dir: string;
}

export function withFreshStore(): OperatorFixture {
  const fixture = {} as OperatorFixture;
  let remove = () => {};
  beforeEach(async () => {
    const data = tempDataDir();
    remove = data.remove;
    fixture.dir = data.dir;
    fixture.store = await openSqliteStore(join(data.dir, 'devnet.sqlite'));
    fixture.run = operator(fixture.store);
  });
  afterEach(async () => {
    await fixture.store.close();
    remove();
  });
  return fixture;
}

/** Adds the test tokens AAA (0.0.7001, 8 decimals) and BBB (0.0.7002, 6 decimals). */
export async function addTokens(cli: OperatorFixture): Promise<void> {
  expect(
    (await cli.run('token', 'add', '--id', '0.0.7001', '--symbol', 'AAA', '--name', 'Token A', '--decimals', '8')).code,
  ).toBe(0);
  expect(
    (await cli.run('token', 'add', '--id', '0.0.7002', '--symbol', 'BBB', '--name', 'Token B', '--decimals', '6')).code,
  ).toBe(0);
}
