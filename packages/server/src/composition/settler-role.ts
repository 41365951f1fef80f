import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock } from '../adapters/clock/system-clock.js';
import { closeNats } from '../adapters/nats/nats-connection.js';
import { NatsEngineSubscriber } from '../adapters/nats/nats-engine-feed.js';
import { advisoryLeases } from '../adapters/postgres/advisory-leases.js';
import { FeeSchedule } from '../application/accounts/fee-schedule.js';
import { CommandLogSettlementDesk } from '../application/command-log/command-log-settlement-desk.js';
import { DeskEvents } from '../application/desk/desk-events.js';
import { MarketRegistry } from '../application/markets/market-registry.js';
import type { Clock } from '../ports/clock.js';
import type { Lease } from '../ports/leases.js';
import { noMetrics } from '../ports/metrics.js';
import { Closers } from './closers.js';
import { openClusterNats, shardCommands } from './cluster-nats.js';
import type { Config } from './config.js';
import { openDataDir } from './service-parts.js';
import { openSettlementChain, type Settlement, startSettlement } from './settlement-wiring.js';
import { openConfiguredStore } from './store-choice.js';

/** The one lease every settler of a cluster asks for: its holder is the active settler. */
const SETTLER_LEASE = 'settler';
/** How often a standby asks for the lease: it takes over within about this long after the active one dies. */
const STANDBY_POLL_MS = 1_000;
/**
 * How often the registry is read again and the engines are told the pools' reserves: an engine
 * started again knows no pool until told, and it learns them so within this long.
 */
const REFRESH_MS = 5_000;

/** A settler process: active once it holds the lease, a standby until then. */
export interface RunningSettler {
  /** Settles once this settler holds the lease and settles fills; stays pending while it stands by. */
  readonly active: Promise<Settlement>;
  /** Settles when the settler must stop: it lost its lease, or failed to start once it held it. */
  readonly failed: Promise<Error>;
  close(): Promise<void>;
}

/** Waits for the settler's lease: answers null when closed first. */
async function awaitLease(config: Config, logger: FastifyBaseLogger, closed: () => boolean): Promise<Lease | null> {
  if (config.databaseUrl === null) throw new Error('ROLE=settler needs DATABASE_URL');
  const leases = advisoryLeases({ url: config.databaseUrl, applicationName: 'dex-exchange settler' });
  let told = false;
  while (!closed()) {
    const lease = await leases.tryAcquire(SETTLER_LEASE).catch((error: unknown) => {
      logger.warn({ err: error }, 'asking for the settler lease failed; asking again');
      return undefined;
    });
    if (lease !== undefined) return lease;
    if (!told) logger.info('standing by: another settler is active');
    told = true;
    await sleep(STANDBY_POLL_MS);
  }
  return null;
}

/**
 * The active settler's parts: the store, the engines' feed (which wakes it on new trades and
 * cancellations), the desk that sends the reactor's verdicts to the engines over their command
 * logs, and the chain with the settler, the cancel relay and the indexers.
 */
async function settle(config: Config, clock: Clock, logger: FastifyBaseLogger, closers: Closers): Promise<Settlement> {
  const { cluster } = config;
  const store = await openConfiguredStore(config, 'settler');
  closers.add(() => store.close());
  const registry = new MarketRegistry(store, config.wrappedNativeAddress);
  await registry.load();
  const nats = await openClusterNats(cluster, 'dex-exchange settler', logger);
  closers.add(() => closeNats(nats));
  const deskEvents = new DeskEvents(logger);
  const stopFeed = await new NatsEngineSubscriber(nats, cluster.natsPrefix).subscribe((publication) =>
    deskEvents.publish(() => publication.commit),
  );
  closers.add(stopFeed);
  const desk = new CommandLogSettlementDesk(shardCommands(nats, cluster), logger);
  const chain = await openSettlementChain(config, store, logger, closers);
  if (chain === null) throw new Error('ROLE=settler needs a chain (CHAIN=devnet or CHAIN=rpc)');
  const fees = new FeeSchedule(store.feeOverrides);
  const deps = { store, registry, fees, desk, deskEvents, clock, logger, metrics: noMetrics };
  const settlement = await startSettlement(config, chain, deps, closers);
  const logFailure = (what: string) => (error: unknown) => logger.warn({ err: error }, `${what} failed`);
  const refresh = setInterval(() => {
    registry.refresh().catch(logFailure('registry refresh'));
    settlement.amm?.reportReserves().catch(logFailure("telling the engines the pools' reserves"));
  }, REFRESH_MS);
  closers.add(async () => clearInterval(refresh));
  logger.info({ reactor: chain.reactor }, 'settler running: settling fills and relaying cancellations');
  return settlement;
}

/**
 * ROLE=settler: the settler and the indexers of a cluster. Several may run; the one holding the
 * PostgreSQL advisory lease settles, and the others stand by, asking for the lease every second,
 * so one takes over within seconds of the active settler's death. The active one opens the chain
 * (on the devnet, the node in the shared DATA_DIR, reattached if it still runs), reconciles with
 * it, and sends what the reactor decided to the engines that own the books.
 */
export async function startSettler(
  config: Config,
  logger: FastifyBaseLogger,
  clock: Clock = systemClock,
): Promise<RunningSettler> {
  openDataDir(config.dataDir, logger);
  const closers = new Closers(logger, 'settler');
  let closed = false;
  let fail!: (error: Error) => void;
  const failed = new Promise<Error>((resolve) => {
    fail = resolve;
  });
  // Null when closed while standing by.
  const starting = (async () => {
    const lease = await awaitLease(config, logger, () => closed);
    if (lease === null) return null;
    closers.add(() => lease.release());
    void lease.lost.then(fail);
    logger.info('active: this settler holds the lease');
    return settle(config, clock, logger, closers);
  })();
  starting.catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
  const active = starting.then((settlement) => settlement ?? new Promise<Settlement>(() => {}));
  return {
    active,
    failed,
    close: async () => {
      closed = true;
      // A start under way finishes first, so that everything it opened is closed.
      await starting.catch(() => {});
      await closers.closeAll();
    },
  };
}
