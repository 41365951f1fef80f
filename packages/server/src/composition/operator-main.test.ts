import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR_USAGE } from '../edges/cli/operator.js';
import { startHarness, tempDataDir } from '../test-support/harness.js';

const SERVER = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', SERVER), 'utf8')) as { bin: Record<string, string> };
/** The file npm links as `dex-operator`: a launcher of the built CLI, there before the first build. */
const launcher = new URL(manifest.bin['dex-operator'] ?? '', SERVER);
const folders: (() => void)[] = [];

afterEach(() => {
  for (const remove of folders.splice(0)) remove();
});

function dexOperator(dataDir: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH, DATA_DIR: dataDir };
    execFile(process.execPath, [fileURLToPath(launcher), ...args], { env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
  });
}

describe('the dex-operator bin', () => {
  it('is a launcher of the built CLI, which npm can link before the first build', async () => {
    expect(readFileSync(launcher, 'utf8')).toContain("import('../dist/composition/operator-main.js')");
    const data = tempDataDir();
    folders.push(data.remove);
    // npm test builds before it tests, so the launcher finds the CLI built from this source.
    expect(await dexOperator(data.dir, '--help')).toEqual({ code: 0, stdout: `${OPERATOR_USAGE}\n`, stderr: '' });
    expect(await dexOperator(data.dir, 'devnet', 'seed', '--create', '--json')).toEqual({
      code: 0,
      stdout: '{"seeded":true}\n',
      stderr: '',
    });
    expect(await dexOperator(data.dir, 'book', 'delete')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'unknown command "book delete"\n',
    });
  });

  it('refuses a command on a DATA_DIR that holds no store, naming the file and --create, and creates nothing', async () => {
    const data = tempDataDir();
    folders.push(data.remove);
    const mistyped = join(data.dir, 'dat');
    const file = join(mistyped, 'devnet.sqlite');
    expect(await dexOperator(mistyped, 'token', 'list')).toEqual({
      code: 1,
      stdout: '',
      stderr: `no store at ${file} (DATA_DIR ${mistyped}, NETWORK devnet): check them, or pass --create to make a new, empty store\n`,
    });
    // Help and usage errors open no store either.
    expect((await dexOperator(mistyped, '--help')).code).toBe(0);
    expect((await dexOperator(mistyped, 'token', 'lst')).code).toBe(2);
    expect(existsSync(mistyped)).toBe(false);
  });

  it('makes a new, empty store with --create, which later commands find without it', async () => {
    const data = tempDataDir();
    folders.push(data.remove);
    const fresh = join(data.dir, 'fresh');
    expect(await dexOperator(fresh, 'token', 'list', '--create', '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    expect(existsSync(join(fresh, 'devnet.sqlite'))).toBe(true);
    expect(await dexOperator(fresh, 'token', 'list', '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('deploys to a chain without a store: chain deploy opens none', async () => {
    const data = tempDataDir();
    folders.push(data.remove);
    const missing = join(data.dir, 'owner.key');
    expect(await dexOperator(data.dir, 'chain', 'deploy', '--rpc-url', 'http://127.0.0.1:9', '--key-file', missing)).toEqual({
      code: 2,
      stdout: '',
      stderr: `--key-file ${missing} does not exist\n`,
    });
    expect(readdirSync(data.dir)).toEqual([]);
  });

  it('backs up the store of a service running in another process, and refuses to restore over it until it stops', async () => {
    const h = await startHarness();
    const elsewhere = tempDataDir();
    folders.push(elsewhere.remove);
    try {
      const backup = join(elsewhere.dir, 'exchange.backup');
      const made = await dexOperator(h.config.dataDir, 'backup', '--to', backup);
      expect(made.stderr).toBe('');
      expect(made.code).toBe(0);
      expect(made.stdout).toMatch(
        /^wrote .*exchange\.backup \(\d+ bytes\)\nnetwork devnet, schema version \d+, taken .*\nrows: .*books 4/,
      );
      expect(await dexOperator(h.config.dataDir, 'backup', '--to', backup)).toEqual({
        code: 1,
        stdout: '',
        stderr: `${backup} exists: pass --force to replace it\n`,
      });
      expect(await dexOperator(h.config.dataDir, 'restore', '--from', backup)).toEqual({
        code: 1,
        stdout: '',
        stderr: `the store ${join(h.config.dataDir, 'devnet.sqlite')} is open by another process: stop the service (and any operator command) first\n`,
      });
      const restored = await dexOperator(elsewhere.dir, 'restore', '--from', backup);
      expect(restored).toMatchObject({ code: 0, stderr: '' });
      expect(restored.stdout).toContain(`restored ${join(elsewhere.dir, 'devnet.sqlite')}`);
      expect(readdirSync(elsewhere.dir).sort()).toEqual(['devnet.sqlite', 'exchange.backup']);
    } finally {
      await h.close();
    }
  });
});
