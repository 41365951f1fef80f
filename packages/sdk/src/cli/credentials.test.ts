import { PrivateKey } from '@hashgraph/sdk';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { registerEd25519Account } from '../test-support/server.js';
import { answerRecordingFetch, sentTokens, serveTraderCli } from '../test-support/trader-cli.js';

/** Every key and token of this file: none may ever show in what the CLI writes. */
const secrets: string[] = [];

const served = serveTraderCli();

function wallet(): { key: string; address: string } {
  const key = generatePrivateKey();
  secrets.push(key.slice(2));
  return { key, address: privateKeyToAddress(key).toLowerCase() };
}

async function ledgerAccount(): Promise<{ key: PrivateKey; account: string }> {
  const key = PrivateKey.generateED25519();
  secrets.push(key.toStringRaw(), key.toStringDer());
  return { key, account: await registerEd25519Account(served.api.server, key.publicKey.toBytesRaw()) };
}

/** Places a limit order through the CLI and returns who placed it, as `order list --json` shows it. */
async function placesAs(env: Record<string, string>, keyFile?: string): Promise<{ code: number; err: string }> {
  const recorder = answerRecordingFetch();
  const keyArgs = keyFile === undefined ? [] : ['--key-file', keyFile];
  const placed = await served.cli.run(['order', 'place', '1', '--side', 'sell', '--price', '0.5', '--size', '1', ...keyArgs], {
    env,
    fetch: recorder.fetch,
  });
  secrets.push(...sentTokens(recorder.headers));
  return placed;
}

/** The account the CLI logged in as: `login --json` names it. */
async function loginAccount(env: Record<string, string>, keyFile?: string): Promise<string> {
  const recorder = answerRecordingFetch();
  const { code, out, err } = await served.cli.run(
    ['login', '--json', ...(keyFile === undefined ? [] : ['--key-file', keyFile])],
    {
      env,
      fetch: recorder.fetch,
    },
  );
  secrets.push(...sentTokens(recorder.headers), ...recorder.answers.flatMap((answer) => JSON.parse(answer.body).token ?? []));
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return JSON.parse(out).account;
}

describe('a 0x wallet', () => {
  it('signs with DEX_PRIVATE_KEY, with or without 0x, and logs in as the key address', async () => {
    const { key, address } = wallet();
    for (const value of [key, key.slice(2), `  ${key.toUpperCase().replace('0X', '0x')}\n`]) {
      expect(await loginAccount({ DEX_PRIVATE_KEY: value })).toBe(address);
    }
    expect(await placesAs({ DEX_PRIVATE_KEY: key })).toMatchObject({ code: 0, err: '' });
  });

  it('signs with a key file of mode 600, from DEX_KEY_FILE or --key-file', async () => {
    const { key, address } = wallet();
    const file = await served.cli.keyFile('wallet.key', key.slice(2));
    expect(await loginAccount({ DEX_KEY_FILE: file })).toBe(address);
    expect(await loginAccount({}, file)).toBe(address);
    expect(await placesAs({}, file)).toMatchObject({ code: 0 });
  });

  it('accepts DEX_ACCOUNT only when it is the key address', async () => {
    const { key, address } = wallet();
    expect(await loginAccount({ DEX_PRIVATE_KEY: key, DEX_ACCOUNT: address.toUpperCase().replace('0X', '0x') })).toBe(address);
    const other = wallet();
    const { code, err } = await served.cli.run(['login'], { env: { DEX_PRIVATE_KEY: key, DEX_ACCOUNT: other.address } });
    expect(code).toBe(2);
    expect(err).toContain(`DEX_ACCOUNT is ${other.address}, but the key's address is ${address}`);
  });
});

describe('an Ed25519 ledger account', () => {
  it('signs with its raw or DER hex key from DEX_PRIVATE_KEY and DEX_ACCOUNT', async () => {
    const { key, account } = await ledgerAccount();
    expect(await loginAccount({ DEX_PRIVATE_KEY: key.toStringRaw(), DEX_ACCOUNT: account })).toBe(account);
    expect(await loginAccount({ DEX_PRIVATE_KEY: key.toStringDer(), DEX_ACCOUNT: account, DEX_KEY_TYPE: 'ED25519' })).toBe(
      account,
    );
    expect(await placesAs({ DEX_PRIVATE_KEY: key.toStringRaw(), DEX_ACCOUNT: account })).toMatchObject({ code: 0, err: '' });
  });

  it('signs with a key file', async () => {
    const { key, account } = await ledgerAccount();
    const file = await served.cli.keyFile('ledger.key', key.toStringRaw());
    expect(await loginAccount({ DEX_KEY_FILE: file, DEX_ACCOUNT: account })).toBe(account);
    expect(await placesAs({ DEX_ACCOUNT: account }, file)).toMatchObject({ code: 0 });
  });

  it('needs DEX_ACCOUNT to know which account the key is', async () => {
    const { key } = await ledgerAccount();
    const { code, err } = await served.cli.run(['login'], {
      env: { DEX_PRIVATE_KEY: key.toStringRaw(), DEX_KEY_TYPE: 'ed25519' },
    });
    expect(code).toBe(2);
    expect(err).toContain('An Ed25519 key logs in as its ledger account: set DEX_ACCOUNT=0.0.X');
  });

  it('is refused by the server when the key is not the account key, with exit code 1', async () => {
    const { account } = await ledgerAccount();
    const stranger = PrivateKey.generateED25519();
    secrets.push(stranger.toStringRaw());
    const { code, err } = await served.cli.run(['order', 'list'], {
      env: { DEX_PRIVATE_KEY: stranger.toStringRaw(), DEX_ACCOUNT: account },
    });
    expect(code).toBe(1);
    expect(err).toMatch(/^dex-trade: .+ \(HTTP 401 [A-Z_]+, request id [\w-]+\)$/);
  });
});

describe('bad keys and key files', () => {
  it('refuses a key file other users can open, and says how to fix it', async () => {
    const { key } = wallet();
    const file = await served.cli.keyFile('open.key', key.slice(2), 0o644);
    const { code, err } = await served.cli.run(['login'], { env: { DEX_KEY_FILE: file } });
    expect(code).toBe(2);
    expect(err).toContain(`The key file ${file} is open to other users (mode 644); make it private: chmod 600 ${file}`);
  });

  it.each([
    ['a missing key file', async () => ({ DEX_KEY_FILE: `${served.cli.stateDir}/missing.key` }), 'Cannot read the key file'],
    ['a key file that is a folder', async () => ({ DEX_KEY_FILE: served.cli.stateDir }), 'is not a regular file'],
    [
      'a key file holding something else',
      async () => ({ DEX_KEY_FILE: await served.cli.keyFile('notes.key', 'not a key at all') }),
      'A secp256k1 private key must be 32 bytes of hex',
    ],
    ['a short key', async () => ({ DEX_PRIVATE_KEY: wallet().key.slice(0, 40) }), 'got 38 characters'],
    ['both a key and a key file', async () => ({ DEX_PRIVATE_KEY: wallet().key, DEX_KEY_FILE: '/x' }), 'not both'],
    ['an unknown key type', async () => ({ DEX_PRIVATE_KEY: wallet().key, DEX_KEY_TYPE: 'rsa' }), 'DEX_KEY_TYPE must be'],
    ['a malformed account', async () => ({ DEX_PRIVATE_KEY: wallet().key, DEX_ACCOUNT: 'alice' }), 'DEX_ACCOUNT must be'],
  ])('refuses %s as a usage error', async (_name, env, message) => {
    const { code, out, err } = await served.cli.run(['order', 'list'], { env: await env() });
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
  });

  it('does not need a key, nor mind a broken one, for public market data', async () => {
    const { code } = await served.cli.run(['books'], { env: { DEX_PRIVATE_KEY: 'garbage', DEX_KEY_TYPE: 'rsa' } });
    expect(code).toBe(0);
  });
});

describe('secrets', () => {
  it('never wrote a key or an access token in any output or error of this file', () => {
    expect(secrets.length).toBeGreaterThan(10);
    const written = served.cli.written.join('\n').toLowerCase();
    for (const secret of secrets) expect(written).not.toContain(secret.toLowerCase());
    expect(written).not.toMatch(/eyj[\w-]+\.[\w-]+\./);
  });
});
