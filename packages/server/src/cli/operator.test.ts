import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { privateKeyToAddress } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Store, StoreConflictError } from '../store/ports.js';
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
    const code = await runOperator(argv, {
      store,
      network: 'devnet',
      clock,
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}

/** A fresh store in a temporary folder for every test of the calling describe, with an operator on it. */
interface OperatorFixture {
  store: Store;
  run: ReturnType<typeof operator>;
  dir: string;
}

function withFreshStore(): OperatorFixture {
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

describe('operator CLI', () => {
  const cli = withFreshStore();

  async function addTokens(): Promise<void> {
    expect(
      (await cli.run('token', 'add', '--id', '0.0.7001', '--symbol', 'AAA', '--name', 'Token A', '--decimals', '8')).code,
    ).toBe(0);
    expect(
      (await cli.run('token', 'add', '--id', '0.0.7002', '--symbol', 'BBB', '--name', 'Token B', '--decimals', '6')).code,
    ).toBe(0);
  }

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
    await addTokens();
    const again = await cli.run('token', 'add', '--id', '0.0.7001', '--symbol', 'AAA', '--name', 'Again', '--decimals', '8');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already exists/);
  });

  it('adds a book by token symbol or id, with default fees', async () => {
    await addTokens();
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
    const result = await cli.run('book', 'add', '--base', 'AAA', '--quote', 'BBB', ...args);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
    expect(await cli.store.books.list()).toEqual([]);
  });

  it('refuses a book whose tokens are unknown or the same', async () => {
    await addTokens();
    expect((await cli.run('book', 'add', '--base', 'ZZZ', '--quote', 'BBB', ...GRID)).err).toMatch(/no token ZZZ/);
    expect((await cli.run('book', 'add', '--base', 'AAA', '--quote', 'AAA', ...GRID)).err).toMatch(/different tokens/);
  });

  it('opens, closes, halts and resumes a book', async () => {
    await addTokens();
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

  it('seeds the devnet once', async () => {
    expect((await cli.run('devnet', 'seed')).code).toBe(0);
    expect(await cli.store.books.list()).toHaveLength(3);
    expect((await cli.run('devnet', 'seed')).code).toBe(1);
  });

  it('prints usage for no command, help, unknown commands and unknown flags', async () => {
    expect((await cli.run()).code).toBe(2);
    expect((await cli.run('--help')).out).toContain('book open|close|halt|resume');
    expect((await cli.run('book', 'delete', '1')).err).toMatch(/unknown command/);
    expect((await cli.run('token', 'list', '--colour')).code).toBe(2);
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

describe('operator CLI accounts', () => {
  const cli = withFreshStore();

  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

  it('adds an ED25519 account under its long-zero address and lists it', async () => {
    const publicKey = hex(ed25519.keygen().publicKey);
    const added = await cli.run('account', 'add', '--id', '0.0.6001', '--key-type', 'ed25519', '--public-key', publicKey);
    expect(added).toMatchObject({ code: 0, err: '' });
    expect(added.out).toContain('0x0000000000000000000000000000000000001771');
    expect(JSON.parse((await cli.run('account', 'list', '--json')).out)).toMatchObject([
      { accountId: '0.0.6001', keyType: 'ED25519', publicKey, evmAddress: '0x0000000000000000000000000000000000001771' },
    ]);
    expect((await cli.run('account', 'list')).out).toContain(`0.0.6001\tED25519`);
  });

  it('adds a secp256k1 key given in DER form and keeps it compressed under its alias address', async () => {
    const secretKey = secp256k1.utils.randomSecretKey();
    const der = `3056301006072a8648ce3d020106052b8104000a034200${hex(secp256k1.getPublicKey(secretKey, false))}`;
    const added = await cli.run('account', 'add', '--id', '0.0.6002', '--key-type', 'SECP256K1', '--public-key', der, '--json');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({
      accountId: '0.0.6002',
      keyType: 'ECDSA_SECP256K1',
      publicKey: hex(secp256k1.getPublicKey(secretKey, true)),
      evmAddress: privateKeyToAddress(`0x${hex(secretKey)}`).toLowerCase(),
    });
  });

  it.each([
    [['--id', '6001', '--key-type', 'ed25519', '--public-key', '00'.repeat(32)], /ledger id/],
    [['--id', '0.0.6001', '--key-type', 'rsa', '--public-key', '00'.repeat(32)], /--key-type must be/],
    [['--id', '0.0.6001', '--key-type', 'constructor', '--public-key', '00'.repeat(32)], /--key-type must be/],
    [['--id', '0.0.6001', '--key-type', 'ed25519', '--public-key', 'xyz'], /must be hex/],
    [['--id', '0.0.6001', '--key-type', 'ed25519', '--public-key', '00'.repeat(31)], /32 bytes/],
    [['--id', '0.0.6001', '--key-type', 'secp256k1', '--public-key', `02${'ff'.repeat(32)}`], /not a point/],
    [['--id', '0.0.6001', '--key-type', 'ed25519'], /--public-key is required/],
  ])('refuses an account with bad input %j (exit 2)', async (args, message) => {
    const result = await cli.run('account', 'add', ...args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(await cli.store.accountKeys.list()).toEqual([]);
  });

  it('refuses a second key for an account (exit 1) and an id that a token has (exit 2)', async () => {
    const key = () => hex(ed25519.keygen().publicKey);
    await cli.run('account', 'add', '--id', '0.0.6001', '--key-type', 'ed25519', '--public-key', key());
    const again = await cli.run('account', 'add', '--id', '0.0.6001', '--key-type', 'ed25519', '--public-key', key());
    expect(again).toMatchObject({ code: 1, err: expect.stringMatching(/already has a key/) });
    await cli.run('token', 'add', '--id', '0.0.7001', '--symbol', 'AAA', '--name', 'Token A', '--decimals', '8');
    const token = await cli.run('account', 'add', '--id', '0.0.7001', '--key-type', 'ed25519', '--public-key', key());
    expect(token).toMatchObject({ code: 2, err: expect.stringMatching(/is a token/) });
  });

  it('creates devnet accounts from 0.0.5001 with fresh keys, writing only the key file the private key', async () => {
    const edFile = join(cli.dir, 'ed.key');
    const created = await cli.run('account', 'create', '--key-type', 'ed25519', '--key-file', edFile);
    expect(created.code).toBe(0);
    const edSecret = readFileSync(edFile, 'utf8').trim();
    expect(edSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(edFile).mode & 0o777).toBe(0o600);
    const edPublic = hex(ed25519.getPublicKey(Buffer.from(edSecret, 'hex')));
    expect(created.out).toContain('0.0.5001');
    expect(created.out).toContain(edPublic);
    expect(created.out + created.err).not.toContain(edSecret);
    expect(await cli.store.accountKeys.get('0.0.5001')).toMatchObject({ keyType: 'ED25519', publicKey: edPublic });

    const ecFile = join(cli.dir, 'ec.key');
    const ec = await cli.run('account', 'create', '--key-type', 'secp256k1', '--key-file', ecFile, '--json');
    const ecSecret = readFileSync(ecFile, 'utf8').trim();
    expect(ec.out).not.toContain(ecSecret);
    expect(JSON.parse(ec.out)).toEqual({
      accountId: '0.0.5002',
      keyType: 'ECDSA_SECP256K1',
      publicKey: hex(secp256k1.getPublicKey(Buffer.from(ecSecret, 'hex'), true)),
      evmAddress: privateKeyToAddress(`0x${ecSecret}`).toLowerCase(),
      createdAt: expect.any(Number),
      keyFile: ecFile,
      // This operator has no devnet chain to fund through (see operator-devnet.test.ts).
      funded: null,
    });
  });

  it('creates the next account after the highest one, skipping token ids', async () => {
    await cli.run('account', 'add', '--id', '0.0.6001', '--key-type', 'ed25519', '--public-key', hex(ed25519.keygen().publicKey));
    await cli.run('token', 'add', '--id', '0.0.6002', '--symbol', 'AAA', '--name', 'Token A', '--decimals', '8');
    const created = await cli.run('account', 'create', '--key-type', 'ed25519', '--key-file', join(cli.dir, 'a.key'), '--json');
    expect(JSON.parse(created.out)).toMatchObject({ accountId: '0.0.6003' });
  });

  it('never overwrites a key file', async () => {
    const file = join(cli.dir, 'taken.key');
    writeFileSync(file, 'precious\n');
    const result = await cli.run('account', 'create', '--key-type', 'ed25519', '--key-file', file);
    expect(result).toMatchObject({ code: 2, err: expect.stringMatching(/exists/) });
    expect(readFileSync(file, 'utf8')).toBe('precious\n');
    expect(await cli.store.accountKeys.list()).toEqual([]);
  });

  it('removes the key file again when the account cannot be registered', async () => {
    const refusing: Store = {
      ...cli.store,
      accountKeys: {
        ...cli.store.accountKeys,
        insert: async () => {
          throw new StoreConflictError('the store refuses');
        },
      },
    };
    const file = join(cli.dir, 'orphan.key');
    const result = await operator(refusing)('account', 'create', '--key-type', 'secp256k1', '--key-file', file);
    expect(result).toMatchObject({ code: 1, err: 'the store refuses' });
    expect(existsSync(file)).toBe(false);
  });

  it('lists the account commands in the usage', async () => {
    expect((await cli.run('--help')).out).toMatch(/account add[\s\S]*account create[\s\S]*account list/);
    expect((await cli.run('account', 'create', '--key-type', 'ed25519')).err).toMatch(/--key-file is required/);
  });
});

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
    expect(set).toMatchObject({ code: 0, out: `set fees ${WALLET.toLowerCase()}\tbook 1\ttaker 250 maker 0 pips` });
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

  it.each([
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

describe('operator CLI API keys', () => {
  const cli = withFreshStore();

  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('issues a UUID v4 key, prints it once and stores only its SHA-256', async () => {
    const issued = await cli.run('apikey', 'issue', '--name', 'Acme bot', '--quota', '100000');
    expect(issued.code).toBe(0);
    const key = /^key {2}(\S+)$/m.exec(issued.out)?.[1] ?? '';
    expect(key).toMatch(UUID_V4);
    expect(issued.out).toContain('only time the key is shown');
    const [stored] = await cli.store.apiKeys.list();
    expect(stored).toMatchObject({
      id: 1,
      name: 'Acme bot',
      monthlyQuota: 100000,
      overageAllowed: false,
      environment: 'devnet',
      status: 'ACTIVE',
    });
    expect(stored?.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    const listed = await cli.run('apikey', 'list', '--json');
    expect(listed.out).not.toContain(key);
    expect(listed.out).not.toContain(stored?.keyHash);
    expect(JSON.parse(listed.out)).toEqual([expect.objectContaining({ id: 1, name: 'Acme bot', status: 'ACTIVE' })]);
  });

  it('issues keys with overage and for another environment', async () => {
    const issued = JSON.parse(
      (await cli.run('apikey', 'issue', '--name', 'b', '--quota', '5', '--overage', '--environment', 'mainnet', '--json')).out,
    );
    expect(issued).toMatchObject({
      id: 1,
      monthlyQuota: 5,
      overageAllowed: true,
      environment: 'mainnet',
      key: expect.stringMatching(UUID_V4),
    });
    expect(issued.keyHash).toBeUndefined();
  });

  it.each([
    [['--quota', '10'], /--name is required/],
    [['--name', 'x'], /--quota is required/],
    [['--name', 'x', '--quota', '0'], /--quota must be/],
    [['--name', 'x', '--quota', '1.5'], /--quota must be/],
    [['--name', 'x', '--quota', '10000000000000'], /--quota must be/],
    [['--name', 'x', '--quota', '10', '--environment', 'prod'], /--environment/],
  ])('refuses apikey issue %j (exit 2)', async (args, message) => {
    const result = await cli.run('apikey', 'issue', ...args);
    expect(result).toMatchObject({ code: 2, err: expect.stringMatching(message) });
    expect(await cli.store.apiKeys.list()).toEqual([]);
  });

  it('suspends, resumes and revokes a key by id or by the key itself; revoking is final', async () => {
    const { key } = JSON.parse((await cli.run('apikey', 'issue', '--name', 'x', '--quota', '10', '--json')).out) as {
      key: string;
    };
    expect(JSON.parse((await cli.run('apikey', 'suspend', '1', '--json')).out)).toMatchObject({ status: 'SUSPENDED' });
    expect((await cli.run('apikey', 'suspend', '1')).code).toBe(1);
    expect(JSON.parse((await cli.run('apikey', 'resume', key, '--json')).out)).toMatchObject({ status: 'ACTIVE' });
    expect((await cli.run('apikey', 'revoke', '1')).code).toBe(0);
    const resumed = await cli.run('apikey', 'resume', '1');
    expect(resumed).toMatchObject({ code: 1, err: expect.stringMatching(/REVOKED/) });
    expect((await cli.run('apikey', 'revoke', '2')).err).toMatch(/no API key 2/);
    expect((await cli.run('apikey', 'revoke')).code).toBe(2);
  });

  it("shows a key's usage this month and in every month", async () => {
    await cli.run('apikey', 'issue', '--name', 'x', '--quota', '10', '--overage');
    await cli.store.apiKeys.addRequests([
      { keyId: 1, monthStart: Date.UTC(2026, 9, 1), requests: 4 },
      { keyId: 1, monthStart: Date.UTC(2026, 10, 1), requests: 12 },
    ]);
    const usage = JSON.parse((await cli.run('apikey', 'usage', '1', '--json')).out);
    expect(usage).toMatchObject({
      month: '2026-11',
      requests: 12,
      limit: 10,
      remaining: 0,
      additional: 2,
      resetsAt: Date.UTC(2026, 11, 1),
    });
    expect(usage.months).toEqual([
      { month: '2026-10', requests: 4 },
      { month: '2026-11', requests: 12 },
    ]);
    expect((await cli.run('apikey', 'usage', '1')).out).toContain('2026-11: 12 requests, 0 of 10 left, 2 additional');
  });
});
