#!/usr/bin/env node
import { runTrader } from './trader.js';

/** The trader CLI on the real process: its streams, environment, clock, and SIGINT to stop a watch. */
const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort());
// `dex-trade books | head -1`: a closed pipe ends the output, not the program with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

runTrader(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  now: Date.now,
  isTerminal: process.stdout.isTTY === true,
  signal: interrupt.signal,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`dex-trade: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
