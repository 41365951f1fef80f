import { describe, expect, it } from 'vitest';
import { addTokens, withFreshStore } from '../../../test-support/operator-cli.js';

describe('operator CLI', () => {
  const cli = withFreshStore();

  it('adds a token with its long-zero address and lists it', async () => {
    const added = await cli.run(
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
    const listed = JSON.parse((await cli.run('token', 'list', '--json')).out) as { id: string; dueDiligenceComplete: boolean }[];
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
    const result = await cli.run('token', 'add', ...args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(await cli.store.tokens.list()).toEqual([]);
  });

  it('refuses a duplicate token (exit 1)', async () => {
    await addTokens(cli);
    const again = await cli.run('token', 'add', '--id', '0.0.7001', '--symbol', 'AAA', '--name', 'Again', '--decimals', '8');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already exists/);
  });
});

describe('operator CLI token listing', () => {
  const cli = withFreshStore();
  const TOKEN_A = ['--id', '0.0.7001', '--symbol', 'AAA', '--name', 'A', '--decimals', '8'];

  it('adds a token with every listing option', async () => {
    const added = await cli.run(
      'token',
      'add',
      ...['--id', '0.0.7001', '--symbol', 'AAA', '--name', 'Token A', '--decimals', '8'],
      ...['--icon', 'https://a.example/icon.svg', '--description', 'A', '--website', 'https://a.example'],
      ...[
        '--sentinel-report',
        'https://sentinel.example/a',
        '--twitter-handle',
        '@token_a',
        '--circulating-supply',
        '123456789012345678901',
      ],
      ...['--due-diligence', '--fee-on-transfer', '--known', '--default', '--json'],
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({
      icon: 'https://a.example/icon.svg',
      website: 'https://a.example/',
      sentinelReport: 'https://sentinel.example/a',
      twitterHandle: 'token_a',
      dueDiligenceComplete: true,
      isFeeOnTransfer: true,
      isKnown: true,
      isDefault: true,
      circulatingSupply: '123456789012345678901',
    });
    const [token] = await cli.store.tokens.list();
    expect(token?.circulatingSupply).toBe(123456789012345678901n);
  });

  it('changes only the named listing fields, clears a text field given empty, and turns flags off with --no-', async () => {
    await cli.run('token', 'add', ...TOKEN_A, '--known', '--icon', 'https://a.example/i.png');
    const updated = await cli.run('token', 'update', '--id', '0.0.7001', '--icon', '', '--no-known', '--due-diligence', '--json');
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.out)).toMatchObject({
      icon: null,
      isKnown: false,
      dueDiligenceComplete: true,
      isDefault: false,
      name: 'A',
    });
  });

  it.each([
    [['--id', '0.0.7001'], /at least one listing option/, 2],
    [['--id', '0.0.7999', '--known'], /no token 0\.0\.7999/, 2],
    [['--id', '0.0.7001', '--twitter-handle', 'far-too-long-for-a-handle'], /twitter-handle/, 2],
    [['--id', '0.0.7001', '--sentinel-report', 'http://plain.example'], /https/, 2],
    [['--id', '0.0.7001', '--circulating-supply', '1e9'], /circulating-supply/, 2],
  ])('refuses token update %j', async (args, message, code) => {
    await cli.run('token', 'add', ...TOKEN_A);
    const result = await cli.run('token', 'update', ...args);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
  });
});
