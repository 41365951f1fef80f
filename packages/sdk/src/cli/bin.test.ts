import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBooks } from '../actions/get-books.js';
import { createClient } from '../client.js';
import { startTestServer, type TestServer } from '../test-support/server.js';

const SDK = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', SDK), 'utf8')) as { bin: Record<string, string> };
/** The file npm links as `dex-trade`: a launcher of the built CLI, there before the first build. */
const launcher = new URL(manifest.bin['dex-trade'] ?? '', SDK);

/** The CLI's process entry, run from source with tsx as the tests run the rest. */
const entry = new URL('src/cli/main.ts', SDK);

let api: TestServer;

beforeAll(async () => {
  api = await startTestServer();
});

afterAll(async () => {
  await api?.close();
});

const nodeArguments = (args: readonly string[]) => ['--import', 'tsx', '--conditions', 'source', fileURLToPath(entry), ...args];

/** Only what the CLI needs (nothing here is stored): no key of the machine's own environment leaks in. */
const environment = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  DEX_API_URL: api.url,
  DEX_STATE_DIR: join(tmpdir(), 'dex-trade-bin-test'),
  ...extra,
});

function dexTrade(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, nodeArguments(args), { env: environment(), timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
  });
}

describe('the dex-trade bin', () => {
  it('is a launcher of the built CLI, which npm can link before the first build', async () => {
    expect(readFileSync(launcher, 'utf8')).toContain("import('../dist/cli/main.js')");
    // npm test builds before it tests, so the launcher finds the CLI built from this source.
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [fileURLToPath(launcher), 'books', '--json'],
        { env: environment(), timeout: 60_000 },
        (error, out, err) =>
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout: out, stderr: err }),
      );
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual(await getBooks(createClient({ baseUrl: api.url })));
  });

  it('prints the books as JSON in a process of its own', async () => {
    const { code, stdout, stderr } = await dexTrade('books', '--json');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.endsWith('\n')).toBe(true);
    expect(JSON.parse(stdout)).toEqual(await getBooks(createClient({ baseUrl: api.url })));
  });

  it('exits with code 1 on an API refusal and 2 on a usage error', async () => {
    const [refused, usage] = await Promise.all([dexTrade('depth', '99'), dexTrade('depth', '1', '--private-key', 'x')]);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain('ORDERBOOK_NOT_FOUND');
    expect(usage).toMatchObject({ code: 2, stdout: '' });
  });

  it('watches the depth until SIGINT, then exits with code 0', async () => {
    const child = spawn(process.execPath, nodeArguments(['depth', '1', '--watch', '--json']), {
      env: environment({ DEX_PRIVATE_KEY: generatePrivateKey() }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const firstLine = await Promise.race([
        new Promise<string>((resolve) =>
          child.stdout.on('data', () => stdout.includes('\n') && resolve(stdout.split('\n')[0] ?? '')),
        ),
        exited.then((exit) => Promise.reject(new Error(`dex-trade exited early: ${JSON.stringify(exit)}`))),
      ]);
      expect(JSON.parse(firstLine)).toMatchObject({ orderbookId: 1, bids: [], asks: [] });
      child.kill('SIGINT');
      expect(await exited).toEqual({ code: 0, signal: null });
    } finally {
      child.kill('SIGKILL');
    }
  });
});
