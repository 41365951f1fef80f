#!/usr/bin/env node
// The checks `npm test` runs before the suite: `npm run lint`, `npm run build` and `npm run typecheck`,
// overlapped instead of one after another (they are mostly single-threaded: a second core and the
// waits on the disk are free). The type check reads the contracts' generated artifacts, so the
// contracts are compiled first (build's own compile step then finds them up to date); lint needs
// nothing and starts at once. Each step's output is printed whole when it ends; any failure fails.
// A passed build is recorded, so the suite's global setup finds the packages built.
import { spawn } from 'node:child_process';
import { markBuilt } from './build-if-changed.mjs';

/** Runs an npm script, its output kept for the report; resolves with whether it passed. */
function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`== npm run ${script}: ${code === 0 ? 'passed' : `failed (${code})`} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

const lint = run('lint');
const buildStarted = new Date();
const compiled = await run('build:contracts');
const built =
  compiled &&
  run('build').then((passed) => {
    if (passed) markBuilt(buildStarted);
    return passed;
  });
const results = await Promise.all([lint, built, compiled && run('typecheck')]);
process.exit(results.every(Boolean) ? 0 : 1);
