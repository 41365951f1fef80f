import { mkdirSync } from 'node:fs';
import { removeStrayTemps } from '@dex/contracts';
import { type Eip712Domain, OrderHasher } from '@dex/core';
import type { FastifyBaseLogger } from 'fastify';
import { DevnetAccountKeys } from '../adapters/accounts/devnet-account-keys.js';
import { MirrorNodeAccountKeys } from '../adapters/accounts/mirror-node-account-keys.js';
import { AmmIndexer } from '../adapters/chain/amm-indexer.js';
import { CancelRelay } from '../adapters/chain/cancel-relay.js';
import type { ChainContext } from '../adapters/chain/chain-context.js';
import { ChainReconciler } from '../adapters/chain/chain-reconciler.js';
import { ChainWatch } from '../adapters/chain/chain-watch.js';
import { ExpiredOrderSweeper } from '../adapters/chain/expired-order-sweeper.js';
import { ChainFundsReader } from '../adapters/chain/funds-reader.js';
import { openChain } from '../adapters/chain/open-chain.js';
import { OperatorTransactions } from '../adapters/chain/operator-transactions.js';
import { ReactorIndexer } from '../adapters/chain/reactor-indexer.js';
import { highestSettledFillAbove } from '../adapters/chain/settled-fill-ids.js';
import { Settler, type SettlerDeps } from '../adapters/chain/settler.js';
import { VerifyPool } from '../adapters/crypto/verify-pool.js';
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';
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
import { type Clock, systemClock } from '../ports/clock.js';
import type { Dependency } from '../ports/dependency.js';
import { type Metrics, noMetrics } from '../ports/metrics.js';
import type { Store } from '../ports/store/ports.js';
import type { WebAssets } from '../ports/web-assets.js';
import type { Config } from './config.js';
import type { ServedDeps } from './server.js';
import { openSharedState } from './shared-state-choice.js';
import { openWrittenStore } from './store-choice.js';

/** Settlement on the chain: absent when CHAIN=off. */
export interface Settlement {
  readonly chain: ChainContext;
  readonly transactions: OperatorTransactions;
  readonly indexer: ReactorIndexer;
  /** Pools, farms and staking read from the AMM; null when the chain has none. */
  readonly amm: AmmIndexer | null;
  readonly settler: Settler;
  readonly cancels: CancelRelay;
  /** Stops polling the chain for new events: no new poll starts, and the one under way finishes. */
  stopFollowing(): Promise<void>;
}

/** The wired service graph of one process, and how to release it. */
export interface Services extends ServedDeps {
  readonly engines: EngineHost;
  readonly desk: TradingDesk;
  readonly settlement: Settlement | null;
}

/** How often the indexers look for new reactor and AMM events. */
const INDEX_POLL_MS = 500;
/** How often resting orders are checked against their deadlines, and dead-man switches against their trigger times. */
const EXPIRY_SWEEP_MS = 1_000;
/** How often nonces that can no longer be used are forgotten. */
const NONCE_PURGE_MS = 60_000;

export function accountKeysOf(config: Config, store: Store, clock: Clock): AccountKeyRegistry {
  return config.mirrorNodeUrl === null
    ? new DevnetAccountKeys(store.accountKeys)
    : new MirrorNodeAccountKeys({ baseUrl: config.mirrorNodeUrl, clock });
}

/**
 * Trade ids are the reactor's fill ids. A store restored from a backup does not know the fills the
 * chain settled after it, and would hand their ids out again: the reactor would call the new
 * fills settled already, and their funds would never move. So before anything can trade, the
 * store is told to skip every id up to the highest one the reactor has settled.
 */
async function skipSettledFillIds(chain: ChainContext, store: Store, logger: FastifyBaseLogger): Promise<void> {
  const settled = await highestSettledFillAbove(chain, await store.trades.highestId()).catch((error: unknown) => {
    // Starting without knowing could give a new trade the id of a settled fill: no start.
    throw new Error("reading the reactor's settled fill ids failed", { cause: error });
  });
  if (settled === null) return;
  await store.trades.skipIdsThrough(settled);
  logger.warn(
    { floor: settled },
    `the chain has settled fills the store does not know (a restored backup?): new trade ids start after ${settled}`,
  );
}

/**
 * Opens the chain (null when CHAIN=off) and registers its close. Before the desk opens, the store
 * is made to skip the ids of the fills the chain settled: no trade may take one.
 */
async function openSettlementChain(
  config: Config,
  store: Store,
  logger: FastifyBaseLogger,
  closers: (() => Promise<void>)[],
): Promise<ChainContext | null> {
  const chain = await openChain(config, store, logger);
  if (chain === null) return null;
  closers.push(() => chain.close());
  await skipSettledFillIds(chain, store, logger);
  return chain;
}

/**
 * Starts the settler, the relay and the indexer after reconciling with the chain, follows the
 * chain (reconciling again whenever it loses blocks), and registers their stop.
 */
async function startSettlement(
  config: Config,
  chain: ChainContext,
  deps: Pick<SettlerDeps, 'store' | 'registry' | 'fees' | 'clock' | 'logger'> & {
    deskEvents: DeskEvents;
    desk: TradingDesk;
    metrics: Metrics;
  },
  closers: (() => Promise<void>)[],
): Promise<Settlement> {
  if (config.chain.kind === 'off') throw new Error('settlement needs a chain');
  const transactions = new OperatorTransactions(chain);
  const watch = new ChainWatch(chain);
  const amm = chain.amm === null ? null : new AmmIndexer(chain, chain.amm, deps.store, deps.logger, watch, deps.desk);
  const indexer = new ReactorIndexer(chain, deps.store, deps.desk, deps.clock, deps.logger, watch, amm, deps.metrics);
  const settler = new Settler({ ...deps, chain, transactions, indexer, config: config.chain.settlement });
  // The AMM is read beside the reactor: rewound with it, caught up at the same polls.
  const reconciler = new ChainReconciler({ ...deps, indexer, transactions, watch, followers: amm === null ? [] : [amm] });
  const cancels = new CancelRelay(chain, transactions, indexer, deps.store, deps.logger, async () => {
    await reconciler.verify();
  });
  // The engines route takers into pools from the reserves recorded so far, until the next Sync.
  await amm
    ?.reportReserves()
    .catch((error: unknown) => deps.logger.warn({ err: error }, "the engines could not be told the pools' reserves"));
  await reconciler.start(chain.headAtStart);
  chain.restarts?.subscribe((head) => {
    reconciler
      .restarted(head)
      .then(() => {
        settler.wake();
        cancels.wake();
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'reconciling with the restarted chain failed'));
  });
  await settler.start();
  cancels.start();
  const sweeper = config.chain.settlement.forgetExpired
    ? new ExpiredOrderSweeper(chain, transactions, deps.store, deps.clock, deps.logger)
    : null;
  sweeper?.start();
  // New trades and cancellations wake their loops at once instead of at the next idle check.
  const unsubscribe = deps.deskEvents.subscribe((commit) => {
    if (commit.trades.length > 0) settler.wake();
    cancels.wake();
  });
  closers.push(async () => unsubscribe());
  closers.push(() => settler.stop());
  closers.push(() => cancels.stop());
  closers.push(async () => sweeper?.stop());
  let following: Promise<void> | null = null;
  const follow = (): Promise<void> =>
    reconciler
      .follow()
      .then((resend) => {
        if (!resend) return;
        settler.wake();
        cancels.wake();
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'following the chain failed'));
  const poll = setInterval(() => {
    following ??= follow().finally(() => {
      following = null;
    });
  }, INDEX_POLL_MS);
  poll.unref();
  const stopFollowing = async (): Promise<void> => {
    clearInterval(poll);
    await following;
  };
  closers.push(async () => {
    await stopFollowing();
    await indexer.catchUp().catch(() => {});
  });
  return { chain, transactions, indexer, amm, settler, cancels, stopFollowing };
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
function dependenciesOf(store: Store, chain: ChainContext | null, others: readonly (Dependency | null)[]): Dependency[] {
  const storeAnswers: Dependency = { name: 'store', check: () => store.ping() };
  const more = others.filter((other) => other !== null);
  if (chain === null) return [storeAnswers, ...more];
  // A raw request: the client's own block number is cached for seconds and would hide a dead node.
  const chainAnswers: Dependency = {
    name: 'chain',
    check: async () => {
      await chain.public.request({ method: 'eth_blockNumber' }, { retryCount: 0 });
    },
  };
  return [storeAnswers, chainAnswers, ...more];
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
export function signingDomainOf(config: Config, chain: ChainContext | null): Eip712Domain {
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
  const closers: (() => Promise<void>)[] = [async () => lease?.release(), () => store.close()];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  // Recorded only when they are served: without METRICS_PORT nothing is counted.
  const prom = config.metricsPort === null ? null : new PromMetrics();
  const metrics: Metrics = prom ?? noMetrics;
  try {
    if (config.seedDevnet && (await seedDevnet(store, clock.now()))) logger.info('seeded the devnet markets');
    const registry = new MarketRegistry(store);
    await registry.load();
    const shared = await openSharedState(config, clock, logger);
    closers.push(() => shared.close());
    const engines = new EngineHost(registry, metrics);
    const chain = await openSettlementChain(config, store, logger, closers);
    const deskEvents = new DeskEvents(logger);
    if (prom !== null) closers.push(countFills(deskEvents, prom));
    const desk = await TradingDesk.open(registry, engines, store, clock, logger, deskEvents, {
      confirmCancels: chain !== null,
      metrics,
    });
    const tokens = new AccessTokens(resolveJwtSecret(config), config.network, config.jwtTtlSeconds, clock);
    const verifier = await VerifyPool.start({ workers: config.verifyWorkers });
    closers.push(() => verifier.close());

    const domain = signingDomainOf(config, chain);
    const hasher = new OrderHasher(domain, keccak256);
    const directory = new AccountDirectory(accountKeysOf(config, store, clock));
    const fees = new FeeSchedule(store.feeOverrides);
    const funds = chain === null ? null : new ChainFundsReader(chain, clock, logger);
    const settlement =
      chain === null
        ? null
        : await startSettlement(config, chain, { store, registry, fees, desk, deskEvents, clock, logger, metrics }, closers);

    const cancelAfter = await CancelAfterSwitches.open(store, desk, clock, logger);
    // A switch whose time passed while the service was down fires before the first request.
    await cancelAfter.fireDue();
    closers.push(startSweeps(desk, cancelAfter, store, clock, logger));

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
