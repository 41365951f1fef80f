import { OrderHasher } from '@dex/core';
import type { FastifyBaseLogger } from 'fastify';
import { type ChainReader, openChainReader } from '../adapters/chain/reads/chain-reader.js';
import { ChainFundsReader } from '../adapters/chain/reads/funds-reader.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import { VerifyPool } from '../adapters/crypto/verify-pool.js';
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';
import { closeNats } from '../adapters/nats/nats-connection.js';
import { NatsEngineSubscriber } from '../adapters/nats/nats-engine-feed.js';
import { FeeSchedule } from '../application/accounts/fee-schedule.js';
import { WalletLogin } from '../application/auth/wallet-login.js';
import { CommandLogDesk } from '../application/command-log/command-log-desk.js';
import { DeskEvents } from '../application/desk/desk-events.js';
import type { OrderDesk } from '../application/desk/order-desk.js';
import type { BookViews } from '../application/market-data/book-views.js';
import { ReplicatedBooks } from '../application/market-data/replicated-books.js';
import { MarketRegistry } from '../application/markets/market-registry.js';
import { CancelAfterSwitches } from '../application/orders/cancel-after.js';
import { OrderBuilder } from '../application/orders/order-builder.js';
import { OrderIntake } from '../application/orders/order-intake.js';
import { OrderQueries } from '../application/orders/order-queries.js';
import { keccak256 } from '../domain/signatures/keccak.js';
import type { Clock } from '../ports/clock.js';
import type { Dependency } from '../ports/dependency.js';
import { type Metrics, noMetrics } from '../ports/metrics.js';
import type { SignatureVerifier } from '../ports/signature-verifier.js';
import type { Store } from '../ports/store/ports.js';
import { Closers } from './closers.js';
import { openClusterNats, shardCommands } from './cluster-nats.js';
import type { Config } from './config.js';
import type { ServedDeps } from './server.js';
import { dependenciesOf, identitiesOf, openDataDir, signingDomainOf, webPageOf } from './service-parts.js';
import { openSharedState, type SharedState } from './shared-state-choice.js';
import { openConfiguredStore } from './store-choice.js';

/** A gateway's served dependencies, and the chain it reads (for the devnet's bot, when it runs beside it). */
export interface GatewayServices extends ServedDeps {
  readonly chain: ChainReader | null;
}

/** How long a replica waits for its book's snapshot, and how long before it asks again. */
const REPLICA_OPTIONS = { snapshotTimeoutMs: 2_000, retryMs: 1_000 };

/** The gateway's connections and books: the store, the shared state, NATS, the replicas and the desk that sends commands. */
async function openGatewayParts(config: Config, clock: Clock, logger: FastifyBaseLogger, closers: Closers) {
  const { cluster } = config;
  const store = await openConfiguredStore(config, 'gateway');
  closers.add(() => store.close());
  const registry = new MarketRegistry(store, config.wrappedNativeAddress);
  await registry.load();
  const shared = await openSharedState(config, clock, logger);
  closers.add(() => shared.close());
  const nats = await openClusterNats(cluster, 'dex-exchange gateway', logger);
  closers.add(() => closeNats(nats));
  const deskEvents = new DeskEvents(logger);
  const subscriber = new NatsEngineSubscriber(nats, cluster.natsPrefix);
  const books = new ReplicatedBooks(registry, subscriber, deskEvents, logger, REPLICA_OPTIONS);
  await books.start();
  closers.add(() => books.stop());
  const desk = new CommandLogDesk(shardCommands(nats, cluster), store.orders);
  const verifier = await VerifyPool.start({ workers: config.verifyWorkers });
  closers.add(() => verifier.close());
  const chain = await openChainReader(config);
  const natsAnswers: Dependency = {
    name: 'nats',
    check: async () => {
      await nats.flush();
    },
  };
  const dependencies = dependenciesOf(store, chain, [natsAnswers, shared.dependency]);
  return { store, registry, shared, deskEvents, books, desk, verifier, chain, dependencies };
}

/** What a gateway's services stand on: the store and books it reads, the desk it sends orders to, its connections. */
export interface GatewayBase {
  readonly config: Config;
  readonly store: Store;
  readonly registry: MarketRegistry;
  readonly shared: SharedState;
  /** The books market data reads: this process's engines, or replicas of them. */
  readonly books: BookViews;
  /** The books' writer: the desk in this process, or the engines behind their command logs. */
  readonly desk: OrderDesk;
  readonly deskEvents: DeskEvents;
  readonly verifier: SignatureVerifier;
  readonly chain: ChainReader | null;
  readonly dependencies: readonly Dependency[];
  /** The recorded metrics; null without METRICS_PORT. */
  readonly prom: PromMetrics | null;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
}

/**
 * The gateway role's services on its base: login, build, hashing, signature verification and the
 * intake, the queries, and the dead-man switches (armed here; fired where the desk runs).
 */
export async function composeGateway(base: GatewayBase): Promise<Omit<ServedDeps, 'booksInStep' | 'leaseLost' | 'close'>> {
  const { config, store, registry, shared, desk, chain, clock, logger } = base;
  const metrics: Metrics = base.prom ?? noMetrics;
  const domain = signingDomainOf(config, chain);
  const hasher = new OrderHasher(domain, keccak256);
  const { directory, tokens } = identitiesOf(config, store, clock);
  const fees = new FeeSchedule(store.feeOverrides);
  const funds = chain === null ? null : new ChainFundsReader(chain, clock, logger);
  return {
    config,
    store,
    registry,
    books: base.books,
    tokens,
    clock,
    logger,
    domain,
    desk,
    cancelAfter: await CancelAfterSwitches.open(store, desk, clock, logger),
    deskEvents: base.deskEvents,
    directory,
    fees,
    funds,
    login: new WalletLogin(shared.challenges, directory, tokens, clock, { name: config.network, chainId: config.chainId }),
    builder: new OrderBuilder(registry, store, fees, hasher, domain, clock),
    intake: new OrderIntake(registry, store, desk, fees, hasher, base.verifier, domain, clock, funds, metrics),
    queries: new OrderQueries(registry, store),
    dependencies: base.dependencies,
    metrics,
    quotaCounters: shared.quotaCounters,
    rateBuckets: shared.rateBuckets,
    loginBuckets: shared.loginBuckets,
    metricsExposition: base.prom,
    webAssets: webPageOf(config, logger),
  };
}

/**
 * ROLE=gateway: the HTTP and WebSocket edges over the cluster's store, with login, build, hashing,
 * signature verification and the data API here; saves and cancels go to the books' engines over
 * their command logs, and market data comes from replicas of the books the engines' feed keeps.
 * Stateless: any number of gateways serve one cluster.
 */
export async function openGatewayServices(
  config: Config,
  logger: FastifyBaseLogger,
  clock: Clock = systemClock,
): Promise<GatewayServices> {
  openDataDir(config.dataDir, logger);
  const closers = new Closers(logger, 'gateway');
  const prom = config.metricsPort === null ? null : new PromMetrics();
  try {
    const parts = await openGatewayParts(config, clock, logger, closers);
    const gateway = await composeGateway({ config, clock, logger, prom, ...parts });
    return {
      ...gateway,
      booksInStep: () => true,
      leaseLost: new Promise<Error>(() => {}),
      chain: parts.chain,
      close: () => closers.closeAll(),
    };
  } catch (error) {
    await closers.closeAll();
    throw error;
  }
}
