#!/usr/bin/env node
import { mkdirSync } from 'node:fs';
import { runOperator } from '../edges/cli/operator.js';
import { systemClock } from '../ports/clock.js';
import { ConfigError, loadConfig } from './config.js';
import { operatorChain, operatorIo } from './operator-wiring.js';
import { openConfiguredStore, storeFile } from './store-choice.js';

/** Operator CLI: works on the same store as the server (DATABASE_URL, or DATA_DIR and NETWORK, from the environment). */
async function main(): Promise<number> {
  const config = loadConfig();
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const store = await openConfiguredStore(config, 'operator');
  try {
    const io = operatorIo({
      store,
      network: config.network,
      clock: systemClock,
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      ...operatorChain(config),
      storeFile: config.databaseUrl === null ? { path: storeFile(config), owned: true } : 'postgres',
    });
    return await runOperator(process.argv.slice(2), io);
  } finally {
    await store.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof ConfigError ? `configuration error: ${error.message}` : String(error)}\n`);
    process.exitCode = error instanceof ConfigError ? 2 : 1;
  },
);
