import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR_USAGE } from '../edges/cli/operator.js';
import { tempDataDir } from '../test-support/harness.js';

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
    expect(await dexOperator(data.dir, 'devnet', 'seed', '--json')).toEqual({ code: 0, stdout: '{"seeded":true}\n', stderr: '' });
    expect(await dexOperator(data.dir, 'book', 'delete')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'unknown command "book delete"\n',
    });
  });
});
