import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { builtEntry } from '@dex/server/test-support';

const run = promisify(execFile);
const OPERATOR_MAIN = fileURLToPath(
  builtEntry(new URL('../../packages/server/src/composition/operator-main.ts', import.meta.url)),
);

/** The operator CLI in a process of its own on a service's DATA_DIR, as an operator runs it: its JSON answer. */
export async function operatorCli<T>(dataDir: string, args: readonly string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [OPERATOR_MAIN, ...args, '--json'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as T;
}
