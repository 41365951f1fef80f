import { mkdirSync } from 'node:fs';
import { removeStrayTemps } from '@dex/contracts';
import { type Eip712Domain, OrderHasher } from '@dex/core';
import type { FastifyBaseLogger } from 'fastify';
import { DevnetAccountKeys } from '../adapters/accounts/devnet-account-keys.js';
import type { ChainContext } from '../adapters/chain/chain-context.js';
import { chainNodeDependency } from '../adapters/chain/reads/chain-reader.js';
import { ChainFundsReader } from '../adapters/chain/reads/funds-reader.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import { VerifyPool } from '../adapters/crypto/verify-pool.js';
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';
import { MirrorNodeAccountKeys } from '../adapters/mirror-node/mirror-node-account-keys.js';
import { resolveJwtSecret } from '../adapters/secrets/jwt-secret.js';
import { loadWebAssets } from '../adapters/web/load-web-assets.js';
import { FeeSchedule } from '../application/accounts/fee-schedule.js';
import { AccessTokens } from '../application/auth/access-tokens.js';
import { AccountDirectory } from '../application/auth/trading-identity.js';
import { WalletLogin } from '../application/auth/wallet-login.js';
import { EngineHost } from '../application/engine/engine-host.js';
import { MarketRegistry } from '../application/markets/market-registry.js';
import { seedDevnet } from '../application/markets/seed.js';
import { CancelAfterSwitches } from '../application/orders/cancel-after.js';
import { DeskEvents } from '../application/orders/desk-events.js';
import { OrderBuilder } from '../application/orders/order-builder.js';
import { OrderIntake } from '../application/orders/order-intake.js';
import { OrderQueries } from '../application/orders/order-queries.js';
import { TradingDesk } from '../application/orders/trading-desk.js';
import { keccak256 } from '../domain/signatures/keccak.js';
import type { AccountKeyRegistry } from '../ports/account-keys.js';
import type { Clock } from '../ports/clock.js';
import type { Dependency } from '../ports/dependency.js';
import { type Metrics, noMetrics } from '../ports/metrics.js';
import type { Store } from '../ports/store/ports.js';
import type { WebAssets } from '../ports/web-assets.js';
import { Closers } from './closers.js';
import type { Config } from './config.js';
import type { ServedDeps } from './server.js';
import { openSettlementChain, type Settlement, startSettlement } from './settlement-wiring.js';
import { openSharedState } from './shared-state-choice.js';
import { openWrittenStore } from './store-choice.js';

/** The wired service graph of one process, and how to release it. */
export interface Services extends ServedDeps {
  readonly engines: EngineHost;
  readonly desk: TradingDesk;
  readonly settlement: Settlement | null;
}

/** How often resting orders are checked against their deadlines, and dead-man switches against their trigger times. */
const EXPIRY_SWEEP_MS = 1_000;
/** How often nonces that can no longer be used are forgotten. */
const NONCE_PURGE_MS = 60_000;

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

/** Expires orders, fires dead-man switches and forgets spent nonces on timers; returns their stop. */
function startSweeps(
  desk: TradingDesk,
  cancelAfter: CancelAfterSwitches,
  store: Store,
  clock: Clock,
  logger: FastifyBaseLogger,
): () => Promise<void> {
  const sweep = setInterval(() => {
    desk.expireDue().catch((error: unknown) => logger.error({ err: error }, 'expiring orders failed'));
    void cancelAfter.fireDue();
  }, EXPIRY_SWEEP_MS);
  const purge = setInterval(() => {
    store.nonces.purgeExpired(clock.now()).catch((error: unknown) => logger.error({ err: error }, 'purging nonces failed'));
  }, NONCE_PURGE_MS);
  sweep.unref();
  purge.unref();
  return async () => {
    clearInterval(sweep);
    clearInterval(purge);
  };
}

/** Counts the trades of each stored commit group, by book and venue; returns the stop. */
function countFills(deskEvents: DeskEvents, metrics: Metrics): () => Promise<void> {
  const unsubscribe = deskEvents.subscribe((commit) => {
    const counts = new Map<string, { bookId: number; venue: 'book' | 'pool'; trades: number }>();
    for (const trade of commit.trades) {
      const venue = trade.makerOrderId === null ? 'pool' : 'book';
      const key = `${trade.bookId}:${venue}`;
      const count = counts.get(key) ?? { bookId: trade.bookId, venue, trades: 0 };
      count.trades++;
      counts.set(key, count);
    }
    for (const { bookId, venue, trades } of counts.values()) metrics.fills(bookId, venue, trades);
  });
  return async () => unsubscribe();
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

/**
 * Opens the store (migrating it), seeds the devnet on first start, loads the registry, rebuilds the
 * books from the stored open orders and wires the trading services.
 */
export async function openServices(config: Config, logger: FastifyBaseLogger, clock: Clock = systemClock): Promise<Services> {
  openDataDir(config.dataDir, logger);
  const { store, lease } = await openWrittenStore(config);
  const closers = new Closers(logger, 'service');
  closers.add(async () => lease?.release());
  closers.add(() => store.close());
  const close = () => closers.closeAll();
  // Recorded only when they are served: without METRICS_PORT nothing is counted.
  const prom = config.metricsPort === null ? null : new PromMetrics();
  const metrics: Metrics = prom ?? noMetrics;
  try {
    if (config.seedDevnet && (await seedDevnet(store, clock.now()))) logger.info('seeded the devnet markets');
    const registry = new MarketRegistry(store, config.wrappedNativeAddress);
    await registry.load();
    const shared = await openSharedState(config, clock, logger);
    closers.add(() => shared.close());
    const engines = new EngineHost(registry, metrics);
    const chain = await openSettlementChain(config, store, logger, closers);
    const deskEvents = new DeskEvents(logger);
    if (prom !== null) closers.add(countFills(deskEvents, prom));
    const desk = await TradingDesk.open(registry, engines, store, clock, logger, deskEvents, {
      confirmCancels: chain !== null,
      metrics,
    });
    const { directory, tokens } = identitiesOf(config, store, clock);
    const verifier = await VerifyPool.start({ workers: config.verifyWorkers });
    closers.add(() => verifier.close());

    const domain = signingDomainOf(config, chain);
    const hasher = new OrderHasher(domain, keccak256);
    const fees = new FeeSchedule(store.feeOverrides);
    const funds = chain === null ? null : new ChainFundsReader(chain, clock, logger);
    const settlement =
      chain === null
        ? null
        : await startSettlement(config, chain, { store, registry, fees, desk, deskEvents, clock, logger, metrics }, closers);

    const cancelAfter = await CancelAfterSwitches.open(store, desk, clock, logger);
    // A switch whose time passed while the service was down fires before the first request.
    await cancelAfter.fireDue();
    closers.add(startSweeps(desk, cancelAfter, store, clock, logger));

    return {
      config,
      store,
      registry,
      engines,
      books: engines,
      booksInStep: () => desk.inStepWithStore,
      tokens,
      clock,
      logger,
      domain,
      desk,
      cancelAfter,
      settlement,
      deskEvents,
      directory,
      fees,
      funds,
      login: new WalletLogin(shared.challenges, directory, tokens, clock, { name: config.network, chainId: config.chainId }),
      builder: new OrderBuilder(registry, store, fees, hasher, domain, clock),
      intake: new OrderIntake(registry, store, desk, fees, hasher, verifier, domain, clock, funds, metrics),
      queries: new OrderQueries(registry, store),
      dependencies: dependenciesOf(store, chain, [shared.dependency]),
      metrics,
      quotaCounters: shared.quotaCounters,
      rateBuckets: shared.rateBuckets,
      loginBuckets: shared.loginBuckets,
      metricsExposition: prom,
      webAssets: webPageOf(config, logger),
      leaseLost: lease?.lost ?? new Promise<Error>(() => {}),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
