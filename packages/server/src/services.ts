import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from './app.js';
import { AccessTokens } from './auth/access-tokens.js';
import { resolveJwtSecret } from './auth/jwt-secret.js';
import type { Config } from './config.js';
import { seedDevnet } from './devnet/seed.js';
import { EngineHost } from './engine/engine-host.js';
import { MarketRegistry } from './registry/market-registry.js';
import { openSqliteStore } from './store/sqlite/sqlite-store.js';
import { type Clock, systemClock } from './util/clock.js';

/** The wired service graph of one process, and how to release it. */
export interface Services extends AppDeps {
  close(): Promise<void>;
}

/** Path of the embedded store for a network. */
export function storeFile(config: Config): string {
  return join(config.dataDir, `${config.network}.sqlite`);
}

/**
 * Opens the store (migrating it), seeds the devnet on first start, loads the registry and starts
 * one engine per book.
 */
export async function openServices(config: Config, logger: FastifyBaseLogger, clock: Clock = systemClock): Promise<Services> {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const store = await openSqliteStore(storeFile(config));
  try {
    if (config.seedDevnet && (await seedDevnet(store, clock.now()))) logger.info('seeded the devnet markets');
    const registry = new MarketRegistry(store);
    await registry.load();
    const engines = new EngineHost(registry, store);
    engines.start();
    const tokens = new AccessTokens(resolveJwtSecret(config), config.network, config.jwtTtlSeconds, clock);
    return { config, store, registry, engines, tokens, clock, logger, close: () => store.close() };
  } catch (error) {
    await store.close();
    throw error;
  }
}
