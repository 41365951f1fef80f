import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { answerRecordingFetch, sentTokens, serveTraderCli } from '../test-support/trader-cli.js';
import { sessionFile } from './session-store.js';

const tokens: string[] = [];

const served = serveTraderCli();

/** Runs a command with a recording fetch; returns the run and the routes it called. */
async function traced(argv: readonly string[], env: Record<string, string>, now?: () => number) {
  const recorder = answerRecordingFetch();
  const run = await served.cli.run(argv, { env, fetch: recorder.fetch, ...(now === undefined ? {} : { now }) });
  tokens.push(...sentTokens(recorder.headers));
  for (const answer of recorder.answers) if (answer.url.endsWith('/auth/verify')) tokens.push(JSON.parse(answer.body).token);
  const routes = recorder.urls.map((url) => new URL(url).pathname);
  return { ...run, routes, logins: routes.filter((route) => route === '/auth/verify').length, headers: recorder.headers };
}

function account() {
  const key = generatePrivateKey();
  return { key, address: privateKeyToAddress(key).toLowerCase(), env: { DEX_PRIVATE_KEY: key } };
}

async function stored(address: string, url = served.api.url): Promise<{ token: string; expiresAt: number; account: string }> {
  return JSON.parse(await readFile(sessionFile(served.cli.stateDir, url, address), 'utf8'));
}

describe('login', () => {
  it('stores the session in a file only its owner can open, and prints the account and expiry, never the token', async () => {
    const { address, env } = account();
    const login = await traced(['login'], env);
    expect(login.code).toBe(0);
    expect(login.logins).toBe(1);
    const file = sessionFile(served.cli.stateDir, served.api.url, address);
    const session = await stored(address);
    expect(session).toEqual({ baseUrl: served.api.url, account: address, token: tokens.at(-1), expiresAt: expect.any(Number) });
    expect(session.expiresAt).toBeGreaterThan(Date.now() + 800_000);
    expect(login.out.split('\n')).toEqual([
      `logged in as  ${address}`,
      `until         ${new Date(session.expiresAt).toISOString()}`,
      `session file  ${file}`,
    ]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(file))).mode & 0o777).toBe(0o700);
  });

  it('lets later commands, in later runs, use the stored session without logging in', async () => {
    const { address, env } = account();
    await traced(['login'], env);
    const { token } = await stored(address);
    const list = await traced(['order', 'list', '--json'], env);
    expect(list.code).toBe(0);
    expect(list.routes).toEqual(['/orders']);
    expect(list.headers[0]?.get('authorization')).toBe(`Bearer ${token}`);
    const place = await traced(['order', 'place', '1', '--side', 'buy', '--price', '0.1', '--size', '1'], env);
    expect(place.code).toBe(0);
    expect(place.logins).toBe(0);
  });

  it('needs no key while the session is good: DEX_ACCOUNT names it', async () => {
    const { address, env } = account();
    await traced(['login'], env);
    const list = await traced(['order', 'list'], { DEX_ACCOUNT: address });
    expect(list).toMatchObject({ code: 0, logins: 0 });
    // Signing still needs the key.
    const place = await traced(['order', 'place', '1', '--side', 'buy', '--price', '0.1', '--size', '1'], {
      DEX_ACCOUNT: address,
    });
    expect(place.code).toBe(2);
    expect(place.routes).toEqual([]);
  });

  it('keeps sessions apart by server address', async () => {
    const { env } = account();
    await traced(['login'], env);
    const other = served.api.url.replace('127.0.0.1', 'localhost');
    const list = await traced(['order', 'list', '--url', other], env);
    expect(list).toMatchObject({ code: 0, logins: 1 });
  });

  it('logs in with the key once the stored session has expired, and refuses without a key', async () => {
    const { address, env } = account();
    await traced(['login'], env);
    const { expiresAt } = await stored(address);
    const later = () => expiresAt + 1_000;
    const withKey = await traced(['order', 'list'], env, later);
    expect(withKey).toMatchObject({ code: 0, logins: 1 });
    const withoutKey = await traced(['order', 'list'], { DEX_ACCOUNT: address }, later);
    expect(withoutKey.code).toBe(2);
    expect(withoutKey.routes).toEqual([]);
    expect(withoutKey.err).toContain(`no stored session of ${address} on ${served.api.url} is still good, and no key is set`);
  });

  it('logs in again with the key when the server refuses the stored token', async () => {
    const { address, env } = account();
    await traced(['login'], env);
    const file = sessionFile(served.cli.stateDir, served.api.url, address);
    const session = await stored(address);
    const [header, payload] = session.token.split('.');
    await writeFile(file, JSON.stringify({ ...session, token: `${header}.${payload}.forged-signature` }));
    const list = await traced(['order', 'list'], env);
    expect(list).toMatchObject({ code: 0, logins: 1 });
    expect(list.routes).toEqual(['/orders', '/auth/challenge', '/auth/verify', '/orders']);
  });

  it('ignores a stored session file it cannot read as one', async () => {
    const { address, env } = account();
    await traced(['login'], env);
    await writeFile(sessionFile(served.cli.stateDir, served.api.url, address), '{"token":');
    expect(await traced(['order', 'list'], env)).toMatchObject({ code: 0, logins: 1 });
  });
});

describe('logout', () => {
  it('deletes the stored session, so the next command logs in with the key again', async () => {
    const { address, env } = account();
    await traced(['login'], env);
    const logout = await traced(['logout'], env);
    expect(logout).toMatchObject({ code: 0, routes: [] });
    expect(logout.out).toBe(`logged out ${address} of ${served.api.url}`);
    await expect(stat(sessionFile(served.cli.stateDir, served.api.url, address))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await traced(['order', 'list'], { DEX_ACCOUNT: address })).toMatchObject({ code: 2 });
    expect(await traced(['order', 'list'], env)).toMatchObject({ code: 0, logins: 1 });
    const again = await traced(['logout', '--json'], env);
    expect(JSON.parse(again.out)).toEqual({ account: address, deleted: false });
  });
});

describe('secrets', () => {
  it('never wrote a token in any output of this file', () => {
    expect(tokens.length).toBeGreaterThan(5);
    const written = served.cli.written.join('\n');
    for (const token of tokens) expect(written).not.toContain(token);
    expect(written).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  });
});
