/**
 * Operator CLI start-up: how long `npm run cli -- book list` takes from the shell to its answer, on
 * a store of its own, against the target of one second; beside it in the same run, the same command
 * without npm (`node scripts/cli.mjs`), and the floor: a bare `node` that prints a line, and a
 * bare `npm run` of a script that does nothing. Built first if a source changed (not timed).
 *
 *   npm run bench:cli -- [--runs 15]
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildIfChanged } from '../scripts/build-if-changed.mjs';
import { readCount } from './support/options.js';
import { fineMillis, median, percentile, printTable, verdict } from './support/report.js';

const TARGET_MS = 1_000;
const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));
const NPM = process.env.npm_execpath;

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const runs = readCount('--runs', values.runs, 15, 3, 1_000);

/** Milliseconds of each of `runs` runs of a command, after one run to warm the file cache. */
function time(command: string, args: readonly string[], env: NodeJS.ProcessEnv): number[] {
  const once = () => {
    const started = performance.now();
    execFileSync(command, args, { cwd: REPOSITORY, env, stdio: ['ignore', 'ignore', 'inherit'] });
    return performance.now() - started;
  };
  once();
  return Array.from({ length: runs }, once);
}

buildIfChanged();
const dataDir = mkdtempSync(join(tmpdir(), 'bench-cli-'));
try {
  const env = { ...process.env, DATA_DIR: dataDir, CHAIN: 'off' };
  const npm = (...args: string[]): [string, string[]] => (NPM === undefined ? ['npm', args] : [process.execPath, [NPM, ...args]]);
  execFileSync(process.execPath, ['scripts/cli.mjs', 'book', 'list', '--create'], { cwd: REPOSITORY, env, stdio: 'ignore' });
  const measured: [string, number[]][] = [
    ['npm run cli -- book list', time(...npm('run', '--silent', 'cli', '--', 'book', 'list'), env)],
    ['node scripts/cli.mjs book list', time(process.execPath, ['scripts/cli.mjs', 'book', 'list'], env)],
    ['floor: npm run of an empty script', time(...npm('run', '--silent', 'bench:cli:floor'), env)],
    ['floor: bare node printing a line', time(process.execPath, ['-e', 'console.log(1)'], env)],
  ];
  const [cli] = measured;
  const cliMedian = median(cli?.[1] ?? []);
  const floor = median(measured[2]?.[1] ?? []);
  printTable(
    ['command', 'p50 ms', 'max ms', 'vs npm floor'],
    measured.map(([name, samples]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      return [
        name,
        fineMillis.format(median(samples)),
        fineMillis.format(percentile(sorted, 1)),
        `${(median(samples) / floor).toFixed(2)}x`,
      ];
    }),
  );
  console.log(
    `\ntarget: npm run cli answers in under ${TARGET_MS} ms: p50 ${fineMillis.format(cliMedian)} ms, ${(cliMedian / TARGET_MS).toFixed(2)}x of the target, ${verdict(cliMedian < TARGET_MS)}`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
