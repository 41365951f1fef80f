#!/usr/bin/env node
import { mkdirSync } from 'node:fs';
import { connectRunningDevnet } from '../chain/devnet-connection.js';
import { ConfigError, loadConfig } from '../config.js';
import { storeFile } from '../services.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { systemClock } from '../util/clock.js';
import { runOperator } from './operator.js';

/** Operator CLI: works on the same store as the server (DATA_DIR and NETWORK from the environment). */
async function main(): Promise<number> {
  const config = loadConfig(process.env);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const store = await openSqliteStore(storeFile(config));
  try {
    return await runOperator(process.argv.slice(2), {
      store,
      network: config.network,
      clock: systemClock,
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      devnet: () => connectRunningDevnet(config.dataDir),
    });
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
