import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../adapters/sqlite/sqlite-store.js';
import { type Harness, startHarness } from '../../../test-support/harness.js';
import { addTokens, GRID, operator, withFreshStore } from '../../../test-support/operator-cli.js';

describe('operator CLI', () => {
  const cli = withFreshStore();

  it('adds a book by token symbol or id, with default fees', async () => {
    await addTokens(cli);
    const added = await cli.run('book', 'add', '--base', 'aaa', '--quote', '0.0.7002', ...GRID, '--json');
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

  it('adds a book whose tick of one size step is a fraction of a quote raw unit, as the live HBAR/USDC book, and lists its raw lot', async () => {
    await addTokens(cli);
    const args = ['--tick-step', '0.00000001', '--size-step', '0.01', '--lot-size', '1', '--min-notional', '15'];
    const added = await cli.run('book', 'add', '--base', 'AAA', '--quote', 'BBB', ...args, '--json');
    expect(added.code).toBe(0);
    const listed = await cli.run('book', 'list');
    expect(listed.out).toContain('lot 1 (100000000 raw) minNotional 15 (15000000 raw)');
    expect(JSON.parse((await cli.run('book', 'list', '--json')).out)).toMatchObject([
      { tickStep: '0.00000001', lotSize: '1', lotSizeRaw: '100000000', minNotional: '15', minNotionalRaw: '15000000' },
    ]);
  });

  it.each([
    [['--tick-step', '0.0001', '--size-step', '0.000000001', '--lot-size', '1', '--min-notional', '5'], /sizeStep is finer/, 1],
    [['--tick-step', '0.0001', '--size-step', '0.01', '--lot-size', '0.015', '--min-notional', '5'], /lotSize/, 1],
    [['--tick-step', '0.0001', '--size-step', '0.01', '--lot-size', '1'], /--min-notional is required/, 2],
    [[...GRID, '--taker-fee-pips', '2000000'], /taker-fee-pips/, 2],
  ])('refuses a book with a bad grid or fee %j', async (args, message, code) => {
    await addTokens(cli);
    const result = await cli.run('book', 'add', '--base', 'AAA', '--quote', 'BBB', ...args);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
    expect(await cli.store.books.list()).toEqual([]);
  });

  it('refuses a book whose tokens are unknown or the same', async () => {
    await addTokens(cli);
    expect((await cli.run('book', 'add', '--base', 'ZZZ', '--quote', 'BBB', ...GRID)).err).toMatch(/no token ZZZ/);
    expect((await cli.run('book', 'add', '--base', 'AAA', '--quote', 'AAA', ...GRID)).err).toMatch(/different tokens/);
  });

  it('opens, closes, halts and resumes a book', async () => {
    await addTokens(cli);
    await cli.run('book', 'add', '--base', 'AAA', '--quote', 'BBB', ...GRID);
    for (const [action, status, halted] of [
      ['halt', 'OPEN', true],
      ['close', 'CLOSED', true],
      ['resume', 'CLOSED', false],
      ['open', 'OPEN', false],
    ] as const) {
      const result = await cli.run('book', action, '1', '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out)).toMatchObject({ status, isHalted: halted });
    }
    expect((await cli.run('book', 'halt', '9')).err).toMatch(/no book 9/);
    expect((await cli.run('book', 'halt')).code).toBe(2);
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
