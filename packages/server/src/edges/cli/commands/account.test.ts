import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { type Store, StoreConflictError } from '../../../ports/store/ports.js';
import { operator, withFreshStore } from '../../../test-support/operator-cli.js';

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

  it('refuses a key file inside a git work tree, naming --allow-in-repo, and registers nothing', async () => {
    const repo = join(cli.dir, 'repo');
    execFileSync('git', ['init', '--quiet', repo]);
    mkdirSync(join(repo, 'keys'));
    const file = join(repo, 'keys', 'trader.key');
    const refused = await cli.run('account', 'create', '--key-type', 'ed25519', '--key-file', file);
    expect(refused).toEqual({
      code: 2,
      out: '',
      err: `--key-file ${file} is inside the git work tree ${realpathSync(repo)}, where a commit could publish the key: write it outside the work tree, or pass --allow-in-repo to write it there anyway`,
    });
    expect(existsSync(file)).toBe(false);
    expect(await cli.store.accountKeys.list()).toEqual([]);
  });

  it('counts a .git file (a linked worktree or submodule) as a git work tree too', async () => {
    const worktree = join(cli.dir, 'worktree');
    mkdirSync(worktree);
    writeFileSync(join(worktree, '.git'), 'gitdir: /elsewhere/.git/worktrees/worktree\n');
    const refused = await cli.run('account', 'create', '--key-type', 'ed25519', '--key-file', join(worktree, 'trader.key'));
    expect(refused).toMatchObject({ code: 2, err: expect.stringContaining('--allow-in-repo') });
  });

  it('writes a key file inside a git work tree with --allow-in-repo, and outside one without it', async () => {
    const repo = join(cli.dir, 'repo');
    execFileSync('git', ['init', '--quiet', repo]);
    const inside = join(repo, 'trader.key');
    const allowed = await cli.run('account', 'create', '--key-type', 'ed25519', '--key-file', inside, '--allow-in-repo');
    expect(allowed.code).toBe(0);
    expect(readFileSync(inside, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    const outside = join(cli.dir, 'trader.key');
    expect((await cli.run('account', 'create', '--key-type', 'ed25519', '--key-file', outside)).code).toBe(0);
    expect(existsSync(outside)).toBe(true);
    expect((await cli.store.accountKeys.list()).map((account) => account.accountId)).toEqual(['0.0.5001', '0.0.5002']);
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
