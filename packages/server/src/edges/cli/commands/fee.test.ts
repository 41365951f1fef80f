import { beforeEach, describe, expect, it } from 'vitest';
import { withFreshStore } from '../../../test-support/operator-cli.js';

describe('operator CLI fee overrides', () => {
  const cli = withFreshStore();
  beforeEach(async () => {
    expect((await cli.run('devnet', 'seed')).code).toBe(0);
  });

  const WALLET = '0xAbCdEf0123456789aBcDeF0123456789abCDef01';

  it('sets, lists, replaces and clears the fees of an account on a book', async () => {
    const set = await cli.run(
      'fee',
      'set',
      '--account',
      WALLET,
      '--book',
      '1',
      '--taker-fee-pips',
      '250',
      '--maker-fee-pips',
      '0',
    );
    expect(set).toMatchObject({ code: 0, out: `set fees ${WALLET.toLowerCase()}\tbook 1\ttaker 250 pips, maker 0 pips` });
    await cli.run('fee', 'set', '--account', '0.0.5001', '--book', '2', '--taker-fee-pips', '10', '--maker-fee-pips', '5');
    await cli.run('fee', 'set', '--account', WALLET, '--book', '1', '--taker-fee-pips', '300', '--maker-fee-pips', '1');
    const listed = JSON.parse((await cli.run('fee', 'list', '--json')).out) as { account: string; takerFeePips: number }[];
    expect(listed.map((fee) => [fee.account, fee.takerFeePips])).toEqual([
      ['0.0.5001', 10],
      [WALLET.toLowerCase(), 300],
    ]);
    expect((await cli.run('fee', 'clear', '--account', WALLET, '--book', '1')).code).toBe(0);
    expect((await cli.run('fee', 'clear', '--account', WALLET, '--book', '1')).code).toBe(1);
    expect(await cli.store.feeOverrides.get(WALLET.toLowerCase(), 1)).toBeUndefined();
  });

  it('sets a maker rebate as a negative maker fee with its cap', async () => {
    const set = await cli.run(
      'fee',
      'set',
      '--account',
      '0.0.5001',
      '--book',
      '1',
      '--taker-fee-pips',
      '1000',
      '--maker-fee-pips=-200',
      '--cap-fraction-pips',
      '250000',
    );
    expect(set).toMatchObject({
      code: 0,
      out: 'set fees 0.0.5001\tbook 1\ttaker 1000 pips, maker rebate 200 pips (at most 250000 pips of the taker fee)',
    });
    expect(await cli.store.feeOverrides.get('0.0.5001', 1)).toMatchObject({ makerFeePips: -200, capFractionPips: 250_000 });
  });

  it.each([
    ['a rebate above 100%', ['--account', '0.0.5001', '--book', '1', '--taker-fee-pips', '1', '--maker-fee-pips=-1000001']],
    [
      'a cap above 100%',
      [
        '--account',
        '0.0.5001',
        '--book',
        '1',
        '--taker-fee-pips',
        '1',
        '--maker-fee-pips',
        '1',
        '--cap-fraction-pips',
        '1000001',
      ],
    ],
    ['an unknown book', ['--account', '0.0.5001', '--book', '9', '--taker-fee-pips', '1', '--maker-fee-pips', '1']],
    ['a malformed account', ['--account', 'alice', '--book', '1', '--taker-fee-pips', '1', '--maker-fee-pips', '1']],
    ['fees above 100%', ['--account', '0.0.5001', '--book', '1', '--taker-fee-pips', '1000001', '--maker-fee-pips', '1']],
    ['a missing maker fee', ['--account', '0.0.5001', '--book', '1', '--taker-fee-pips', '1']],
  ])('refuses %s with a usage error', async (_name, args) => {
    const result = await cli.run('fee', 'set', ...args);
    expect(result.code).toBe(2);
    expect(await cli.store.feeOverrides.list()).toEqual([]);
  });
});
