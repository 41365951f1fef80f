import type { FastifyBaseLogger } from 'fastify';
import type { NatsConnection } from 'nats';
import { systemClock } from '../adapters/clock/system-clock.js';
import { ensureCommandStream, JetStreamCommandReader } from '../adapters/nats/jetstream-command-log.js';
import { closeNats } from '../adapters/nats/nats-connection.js';
import { NatsEnginePublisher } from '../adapters/nats/nats-engine-feed.js';
import { advisoryLeases } from '../adapters/postgres/advisory-leases.js';
import { CommandLogDesk } from '../application/command-log/command-log-desk.js';
import { deskCommandHandler } from '../application/command-log/desk-command-handler.js';
import { DeskEvents } from '../application/desk/desk-events.js';
import { EngineHost } from '../application/desk/engine-host.js';
import { TradingDesk } from '../application/desk/trading-desk.js';
import { MarketRegistry } from '../application/markets/market-registry.js';
import { seedDevnet } from '../application/markets/seed.js';
import { CancelAfterSwitches } from '../application/orders/cancel-after.js';
import { type EngineShard, ownsBook } from '../domain/markets/engine-shards.js';
import type { DeskCommit } from '../domain/orders/desk-commit.js';
import type { Clock } from '../ports/clock.js';
import type { BookPoolState } from '../ports/engine-feed.js';
import type { Lease } from '../ports/leases.js';
import { type Metrics, noMetrics } from '../ports/metrics.js';
import type { Store } from '../ports/store/ports.js';
import { Closers } from './closers.js';
import { commandLogNames, openClusterNats, shardCommands } from './cluster-nats.js';
import { type Config, cancelsWaitForReactor } from './config.js';
import { openConfiguredStore } from './store-choice.js';

/** How often due orders expire, switches fire and the registry is read again. */
const SWEEP_MS = 1_000;
/** How often nonces past their orders' deadlines are forgotten (shard 0). */
const NONCE_PURGE_MS = 60_000;

/** A running engine: the single writer of its shard's books. */
export interface RunningEngine {
  readonly desk: TradingDesk;
  readonly engines: EngineHost;
  /** Settles when the engine must stop: its lease or its command log was lost. */
  readonly failed: Promise<Error>;
  close(): Promise<void>;
}

/** What feeding the gateways reads: the shard's engines, the commits they store, and NATS. */
interface EngineParts {
  readonly config: Config;
  readonly shard: EngineShard;
  readonly engines: EngineHost;
  readonly deskEvents: DeskEvents;
  readonly nats: NatsConnection;
}

/** One engine per shard: the lease is a PostgreSQL advisory lock named after the shard and the count. */
async function takeShardLease(config: Config, shard: EngineShard): Promise<Lease> {
  if (config.databaseUrl === null) throw new Error('ROLE=engine needs DATABASE_URL');
  const leases = advisoryLeases({ url: config.databaseUrl, applicationName: `dex-exchange engine ${shard.index}` });
  const lease = await leases.tryAcquire(`engine-${shard.index}-of-${shard.count}`);
  if (lease === undefined) throw new Error(`another engine already writes shard ${shard.index} of ${shard.count}`);
  return lease;
}

/** The books a commit touched, with their pools as the engine holds them now. */
function poolsOf(commit: DeskCommit, engines: EngineHost): BookPoolState[] {
  const books = new Set([...commit.depth.map((change) => change.bookId), ...commit.trades.map((trade) => trade.bookId)]);
  return [...books].map((bookId) => [bookId, engines.engine(bookId)?.pool ?? null]);
}

/** Publishes every stored commit group to the gateways and answers their snapshot requests for the shard's books. */
async function feedGateways(parts: EngineParts, closers: Closers): Promise<void> {
  const { shard, engines } = parts;
  const publisher = new NatsEnginePublisher(parts.nats, parts.config.cluster.natsPrefix);
  const unsubscribe = parts.deskEvents.subscribe((commit) =>
    publisher.publish({ shard: shard.index, commit, pools: poolsOf(commit, engines) }),
  );
  closers.add(async () => unsubscribe());
  const stopSnapshots = await publisher.serveSnapshots((bookId) => {
    const engine = ownsBook(bookId, shard.index, shard.count) ? engines.engine(bookId) : undefined;
    return engine === undefined ? undefined : { depth: engine.depth(), pool: engine.pool ?? null };
  });
  closers.add(stopSnapshots);
}

/** What the engine's sweeps do besides expiring due orders. */
export interface SweepOptions {
  /** The dead-man switches this engine fires: all of them (one engine, or shard 0), or none. */
  readonly switches: CancelAfterSwitches | null;
  /** Whether other processes arm the switches and add books, so both are read again on every sweep. */
  readonly shared: boolean;
  /** Whether this engine forgets spent nonces: the table is shared, so one engine does it for all. */
  readonly purgeNonces: boolean;
}

/**
 * Expires due orders every second, fires the dead-man switches and forgets spent nonces, and in a
 * cluster reads the registry and the switches again, which other processes change.
 */
export function startSweeps(
  desk: Pick<TradingDesk, 'expireDue'>,
  registry: MarketRegistry,
  store: Store,
  clock: Clock,
  logger: FastifyBaseLogger,
  options: SweepOptions,
): () => Promise<void> {
  const logFailure = (what: string) => (error: unknown) => logger.error({ err: error }, `${what} failed`);
  const { switches, shared } = options;
  const sweep = setInterval(() => {
    if (shared) registry.refresh().catch(logFailure('registry refresh'));
    desk.expireDue().catch(logFailure('expiring orders'));
    if (switches !== null) {
      (shared ? switches.reload() : Promise.resolve())
        .then(() => switches.fireDue())
        .catch(logFailure('firing cancel-after switches'));
    }
  }, SWEEP_MS);
  const purge = options.purgeNonces
    ? setInterval(() => store.nonces.purgeExpired(clock.now()).catch(logFailure('purging nonces')), NONCE_PURGE_MS)
    : undefined;
  sweep.unref();
  purge?.unref();
  return async () => {
    clearInterval(sweep);
    clearInterval(purge);
  };
}

/** What the engine role's desk stands on: an open store and its registry. */
export interface EngineBase {
  readonly store: Store;
  readonly registry: MarketRegistry;
  readonly shard: EngineShard;
  /** Whether cancellations wait for the reactor: there is a settlement chain. */
  readonly confirmCancels: boolean;
  readonly metrics: Metrics;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
}

/** The engine role: the engines of the shard's books and their single writer, loaded from the store. */
export async function composeEngine(
  base: EngineBase,
): Promise<{ engines: EngineHost; deskEvents: DeskEvents; desk: TradingDesk }> {
  const { registry, store, clock, logger, metrics } = base;
  const engines = new EngineHost(registry, metrics);
  const deskEvents = new DeskEvents(logger);
  const desk = await TradingDesk.open(registry, engines, store, clock, logger, deskEvents, {
    confirmCancels: base.confirmCancels,
    shard: base.shard,
    metrics,
  });
  return { engines, deskEvents, desk };
}

/** The store, the registry and the desk of the shard's books, loaded from the store. */
async function openDesk(config: Config, shard: EngineShard, clock: Clock, logger: FastifyBaseLogger, closers: Closers) {
  const store = await openConfiguredStore(config, `engine ${shard.index}`);
  closers.add(() => store.close());
  // Shard 0 seeds, so the engines never race to create the same markets.
  if (config.seedDevnet && shard.index === 0 && (await seedDevnet(store, clock.now()))) logger.info('seeded the devnet markets');
  const registry = new MarketRegistry(store, config.wrappedNativeAddress);
  await registry.load();
  const engine = await composeEngine({
    store,
    registry,
    shard,
    confirmCancels: cancelsWaitForReactor(config),
    metrics: noMetrics,
    clock,
    logger,
  });
  return { store, registry, ...engine };
}

/**
 * ROLE=engine: takes the lease of its shard, rebuilds its books from the store, feeds the
 * gateways, and follows its command log from the position the store holds.
 */
export async function startEngine(config: Config, logger: FastifyBaseLogger, clock: Clock = systemClock): Promise<RunningEngine> {
  const { cluster } = config;
  const shard = { index: cluster.shard, count: cluster.shards };
  const closers = new Closers(logger, 'engine');
  try {
    const lease = await takeShardLease(config, shard);
    closers.add(() => lease.release());
    const desk = await openDesk(config, shard, clock, logger, closers);
    const nats = await openClusterNats(cluster, `dex-exchange engine ${shard.index}`, logger);
    closers.add(() => closeNats(nats));
    const parts: EngineParts = { config, shard, nats, engines: desk.engines, deskEvents: desk.deskEvents };
    await feedGateways(parts, closers);
    const names = commandLogNames(cluster);
    await ensureCommandStream(nats, names);
    const from = await desk.store.orders.commandPosition(shard.index);
    const following = await new JetStreamCommandReader(nats, names).follow(
      shard.index,
      from,
      deskCommandHandler(desk.desk, logger),
    );
    closers.add(() => following.stop());
    logger.info({ shard: shard.index, shards: shard.count, from: from.toString() }, 'engine following its command log');
    const { store, registry } = desk;
    // Shard 0 fires the switches the gateways arm (through the command logs, so every shard cancels).
    const switches =
      shard.index === 0
        ? await CancelAfterSwitches.open(store, new CommandLogDesk(shardCommands(nats, cluster), store.orders), clock, logger)
        : null;
    const options = { switches, shared: true, purgeNonces: shard.index === 0 };
    closers.add(startSweeps(desk.desk, registry, store, clock, logger, options));
    const logLost = following.ended.then(
      () => new Promise<Error>(() => {}),
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    return {
      desk: desk.desk,
      engines: desk.engines,
      failed: Promise.race([lease.lost, logLost]),
      close: () => closers.closeAll(),
    };
  } catch (error) {
    await closers.closeAll();
    throw error;
  }
}
