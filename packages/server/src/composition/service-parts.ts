import { mkdirSync } from 'node:fs';
import { removeStrayTemps } from '@dex/contracts';
import type { Eip712Domain } from '@dex/core';
import type { FastifyBaseLogger } from 'fastify';
import { DevnetAccountKeys } from '../adapters/accounts/devnet-account-keys.js';
import type { ChainContext } from '../adapters/chain/chain-context.js';
import { chainNodeDependency } from '../adapters/chain/reads/chain-reader.js';
import { MirrorNodeAccountKeys } from '../adapters/mirror-node/mirror-node-account-keys.js';
import { resolveJwtSecret } from '../adapters/secrets/jwt-secret.js';
import { loadWebAssets } from '../adapters/web/load-web-assets.js';
import { AccessTokens } from '../application/auth/access-tokens.js';
import { AccountDirectory } from '../application/auth/trading-identity.js';
import type { AccountKeyRegistry } from '../ports/account-keys.js';
import type { Clock } from '../ports/clock.js';
import type { Dependency } from '../ports/dependency.js';
import type { Store } from '../ports/store/ports.js';
import type { WebAssets } from '../ports/web-assets.js';
import type { Config } from './config.js';

/** The parts every role's process is built from: its data folder, its identities, its readiness checks. */

function accountKeysOf(config: Config, store: Store, clock: Clock): AccountKeyRegistry {
  return config.mirrorNodeUrl === null
    ? new DevnetAccountKeys(store.accountKeys)
    : new MirrorNodeAccountKeys({ baseUrl: config.mirrorNodeUrl, clock });
}

/** Who an account is (its keys, the one name it trades under) and the access tokens issued to it under that name. */
export function identitiesOf(config: Config, store: Store, clock: Clock): { directory: AccountDirectory; tokens: AccessTokens } {
  const directory = new AccountDirectory(accountKeysOf(config, store, clock));
  const tokens = new AccessTokens(resolveJwtSecret(config), config.network, config.jwtTtlSeconds, clock, (account) =>
    directory.canonical(account),
  );
  return { directory, tokens };
}

/** Creates DATA_DIR (owner-only); files in it are written by rename, and a crash mid-write can leave the temp file. */
export function openDataDir(dataDir: string, logger: FastifyBaseLogger): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const stray = removeStrayTemps(dataDir);
  if (stray.length > 0) logger.info({ files: stray }, 'removed temp files a crashed write left in DATA_DIR');
}

/** What `/ready` asks: the store, and the chain node when fills settle on one. */
export function dependenciesOf(
  store: Store,
  chain: Pick<ChainContext, 'public'> | null,
  others: readonly (Dependency | null)[],
): Dependency[] {
  const storeAnswers: Dependency = { name: 'store', check: () => store.ping() };
  return [storeAnswers, ...(chain === null ? [] : [chainNodeDependency(chain)]), ...others.filter((other) => other !== null)];
}

/** The built market web page, read into memory once; a missing build is logged, not fatal. */
export function webPageOf(config: Config, logger: FastifyBaseLogger): WebAssets | null {
  if (config.webRoot === null) return null;
  const assets = loadWebAssets(config.webRoot);
  if (assets === null)
    logger.info({ webRoot: config.webRoot }, 'no web page built there: `/` is not served (npm run build makes it)');
  return assets;
}

/** The EIP-712 domain orders are signed in: the reactor on the chain, or the configured address without one. */
export function signingDomainOf(config: Config, chain: Pick<ChainContext, 'reactor'> | null): Eip712Domain {
  return {
    name: config.signatureDomainName,
    version: config.signatureDomainVersion,
    chainId: config.chainId,
    verifyingContract: (chain?.reactor.toLowerCase() ?? config.reactorAddress) as Eip712Domain['verifyingContract'],
  };
}
