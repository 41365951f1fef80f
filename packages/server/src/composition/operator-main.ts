#!/usr/bin/env node
import { mkdirSync } from 'node:fs';
import { systemClock } from '../adapters/clock/system-clock.js';
import { runOperatorCommandLine } from '../edges/cli/operator.js';
import type { Store } from '../ports/store/ports.js';
import { ConfigError, loadConfig } from './config.js';
import { operatorChain, operatorIo } from './operator-wiring.js';
import { checkStoreFileExists, openConfiguredStore, storeFile } from './store-choice.js';

/**
 * Operator CLI: works on the same store as the server (DATABASE_URL, or DATA_DIR and NETWORK, from
 * the environment), opened only for a command that works on it; a store file that is not there is
 * made only when asked (--create).
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const terminal = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
  };
  let store: Store | undefined;
  try {
    return await runOperatorCommandLine(process.argv.slice(2), terminal, async (create) => {
      checkStoreFileExists(config, create);
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      store = await openConfiguredStore(config, 'operator');
      return operatorIo({
        store,
        network: config.network,
        clock: systemClock,
        ...terminal,
        ...operatorChain(config),
        storeFile: config.databaseUrl === null ? { path: storeFile(config), owned: true } : 'postgres',
      });
    });
  } finally {
    await store?.close();
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
