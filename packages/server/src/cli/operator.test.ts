import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store/ports.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { type Harness, ManualClock, startHarness, tempDataDir } from '../test-support/harness.js';
import { runOperator } from './operator.js';

/** A valid grid for the test tokens AAA (8 decimals) / BBB (6 decimals). */
const GRID = ['--tick-step', '0.0001', '--size-step', '0.01', '--lot-size', '1', '--min-notional', '5'];

interface Run {
  code: number;
  out: string;
  err: string;
}

function operator(store: Store, clock = new ManualClock()) {
  return async (...argv: string[]): Promise<Run> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOperator(argv, { store, clock, out: (line) => out.push(line), err: (line) => err.push(line) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}

describe('operator CLI', () => {
  let store: Store;
  let run: ReturnType<typeof operator>;
  let remove: () => void;

  beforeEach(async () => {
    const data = tempDataDir();
    remove = data.remove;
    store = await openSqliteStore(join(data.dir, 'devnet.sqlite'));
    run = operator(store);
  });
  afterEach(async () => {
    await store.close();
    remove();
  });

  async function addTokens(): Promise<void> {
    expect((await run('token', 'add', '--id', '0.0.7001', '--symbol', 'AAA', '--name', 'Token A', '--decimals', '8')).code).toBe(
      0,
    );
    expect((await run('token', 'add', '--id', '0.0.7002', '--symbol', 'BBB', '--name', 'Token B', '--decimals', '6')).code).toBe(
      0,
    );
  }

  it('adds a token with its long-zero address and lists it', async () => {
    const added = await run(
      'token',
      'add',
      '--id',
      '0.0.7001',
      '--symbol',
      'AAA',
      '--name',
      'Token A',
      '--decimals',
      '8',
      '--due-diligence',
    );
    expect(added).toMatchObject({ code: 0, err: '' });
    expect(added.out).toContain('0x0000000000000000000000000000000000001b59');
    const listed = JSON.parse((await run('token', 'list', '--json')).out) as { id: string; dueDiligenceComplete: boolean }[];
    expect(listed).toMatchObject([{ id: '0.0.7001', dueDiligenceComplete: true }]);
  });

  it.each([
    [['--id', '7001', '--symbol', 'A', '--name', 'A', '--decimals', '8'], /ledger id/],
    [['--id', '0.0.1', '--symbol', 'A B', '--name', 'A', '--decimals', '8'], /symbol/],
    [['--id', '0.0.1', '--symbol', 'A', '--name', 'A', '--decimals', '37'], /decimals/],
    [['--id', '0.0.1', '--symbol', 'A', '--name', 'A', '--decimals', '8', '--evm', '0x12'], /--evm/],
    [['--id', '0.0.1', '--symbol', 'A', '--name', 'A', '--decimals', '8', '--website', 'http://a.example'], /https/],
    [['--id', '0.0.1', '--symbol', 'A', '--decimals', '8'], /--name is required/],
  ])('refuses a token with bad input %j (exit 2)', async (args, message) => {
    const result = await run('token', 'add', ...args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(await store.tokens.list()).toEqual([]);
  });

  it('refuses a duplicate token (exit 1)', async () => {
    await addTokens();
    const again = await run('token', 'add', '--id', '0.0.7001', '--symbol', 'AAA', '--name', 'Again', '--decimals', '8');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already exists/);
  });

  it('adds a book by token symbol or id, with default fees', async () => {
    await addTokens();
    const added = await run('book', 'add', '--base', 'aaa', '--quote', '0.0.7002', ...GRID, '--json');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({
      id: 1,
      baseTokenId: '0.0.7001',
      quoteTokenId: '0.0.7002',
      status: 'OPEN',
      takerFeePips: 1000,
      makerFeePips: 0,
    });
  });

  it.each([
    [
      ['--tick-step', '0.000001', '--size-step', '0.01', '--lot-size', '1', '--min-notional', '5'],
      /whole number of quote raw units/,
      1,
    ],
    [['--tick-step', '0.0001', '--size-step', '0.000000001', '--lot-size', '1', '--min-notional', '5'], /sizeStep is finer/, 1],
    [['--tick-step', '0.0001', '--size-step', '0.01', '--lot-size', '0.015', '--min-notional', '5'], /lotSize/, 1],
    [['--tick-step', '0.0001', '--size-step', '0.01', '--lot-size', '1'], /--min-notional is required/, 2],
    [[...GRID, '--taker-fee-pips', '2000000'], /taker-fee-pips/, 2],
  ])('refuses a book with a bad grid or fee %j', async (args, message, code) => {
    await addTokens();
    const result = await run('book', 'add', '--base', 'AAA', '--quote', 'BBB', ...args);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
    expect(await store.books.list()).toEqual([]);
  });

  it('refuses a book whose tokens are unknown or the same', async () => {
    await addTokens();
    expect((await run('book', 'add', '--base', 'ZZZ', '--quote', 'BBB', ...GRID)).err).toMatch(/no token ZZZ/);
    expect((await run('book', 'add', '--base', 'AAA', '--quote', 'AAA', ...GRID)).err).toMatch(/different tokens/);
  });

  it('opens, closes, halts and resumes a book', async () => {
    await addTokens();
    await run('book', 'add', '--base', 'AAA', '--quote', 'BBB', ...GRID);
    for (const [action, status, halted] of [
      ['halt', 'OPEN', true],
      ['close', 'CLOSED', true],
      ['resume', 'CLOSED', false],
      ['open', 'OPEN', false],
    ] as const) {
      const result = await run('book', action, '1', '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out)).toMatchObject({ status, isHalted: halted });
    }
    expect((await run('book', 'halt', '9')).err).toMatch(/no book 9/);
    expect((await run('book', 'halt')).code).toBe(2);
  });

  it('seeds the devnet once', async () => {
    expect((await run('devnet', 'seed')).code).toBe(0);
    expect(await store.books.list()).toHaveLength(3);
    expect((await run('devnet', 'seed')).code).toBe(1);
  });

  it('prints usage for no command, help, unknown commands and unknown flags', async () => {
    expect((await run()).code).toBe(2);
    expect((await run('--help')).out).toContain('book open|close|halt|resume');
    expect((await run('book', 'delete', '1')).err).toMatch(/unknown command/);
    expect((await run('token', 'list', '--colour')).code).toBe(2);
  });
});

describe('operator CLI beside a running server', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await startHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it('halts a book in the running server through the shared store file', async () => {
    const second = await openSqliteStore(join(harness.config.dataDir, 'devnet.sqlite'));
    try {
      expect((await operator(second)('book', 'halt', '1')).code).toBe(0);
    } finally {
      await second.close();
    }
    expect(await harness.services.registry.refresh()).toBe(true);
    expect(harness.services.engines.engine(1)?.isHalted).toBe(true);
    const books = (await harness.app.inject({ method: 'GET', url: '/books' })).json() as {
      orderbooks: { isMarketHalted: number }[];
    };
    expect(books.orderbooks[0]?.isMarketHalted).toBe(1);
    expect(await harness.services.registry.refresh()).toBe(false);
  });
});
