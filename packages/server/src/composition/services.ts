import type { FastifyBaseLogger } from 'fastify';
import type { ChainContext } from '../adapters/chain/chain-context.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import { VerifyPool } from '../adapters/crypto/verify-pool.js';
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';
import { FeeSchedule } from '../application/accounts/fee-schedule.js';
import { EVERY_BOOK } from '../application/desk/admission-checks.js';
import type { DeskEvents } from '../application/desk/desk-events.js';
import type { EngineHost } from '../application/desk/engine-host.js';
import type { TradingDesk } from '../application/desk/trading-desk.js';
import { MarketRegistry } from '../application/markets/market-registry.js';
import { seedDevnet } from '../application/markets/seed.js';
import type { Clock } from '../ports/clock.js';
import { type Metrics, noMetrics } from '../ports/metrics.js';
import { Closers } from './closers.js';
import type { Config } from './config.js';
import { composeEngine, startSweeps } from './engine-role.js';
import { composeGateway } from './gateway-role.js';
import type { ServedDeps } from './server.js';
import { dependenciesOf, openDataDir } from './service-parts.js';
import { openSettlementChain, type Settlement, startSettlement } from './settlement-wiring.js';
import { openSharedState } from './shared-state-choice.js';
import { openWrittenStore } from './store-choice.js';

/** The wired service graph of one process, and how to release it. */
export interface Services extends ServedDeps {
  readonly engines: EngineHost;
  readonly desk: TradingDesk;
  /** The settlement chain (funds, the devnet's faucet and its programs); null when CHAIN=off. */
  readonly chain: ChainContext | null;
  readonly settlement: Settlement | null;
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

/**
 * ROLE=all: the three roles composed in one process over one store. The engine role's desk writes
 * every book; the settler role sends the reactor's verdicts straight to it; the gateway role's
 * services hand it orders and read its engines. Opens the store (migrating it), seeds the devnet
 * on first start and loads the registry first.
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
    const chain = await openSettlementChain(config, store, logger, closers);

    const engine = await composeEngine({
      store,
      registry,
      shard: EVERY_BOOK,
      confirmCancels: chain !== null,
      metrics,
      clock,
      logger,
    });
    const { desk, deskEvents } = engine;
    if (prom !== null) closers.add(countFills(deskEvents, prom));

    const settlement =
      chain === null
        ? null
        : await startSettlement(
            config,
            chain,
            { store, registry, fees: new FeeSchedule(store.feeOverrides), desk, deskEvents, clock, logger, metrics },
            closers,
          );

    const verifier = await VerifyPool.start({ workers: config.verifyWorkers });
    closers.add(() => verifier.close());
    const dependencies = dependenciesOf(store, chain, [shared.dependency]);
    const gateway = await composeGateway({
      config,
      store,
      registry,
      shared,
      books: engine.engines,
      desk,
      deskEvents,
      verifier,
      chain,
      dependencies,
      prom,
      clock,
      logger,
    });

    // A switch whose time passed while the service was down fires before the first request.
    await gateway.cancelAfter.fireDue();
    closers.add(
      startSweeps(desk, registry, store, clock, logger, { switches: gateway.cancelAfter, shared: false, purgeNonces: true }),
    );

    return {
      ...gateway,
      engines: engine.engines,
      desk,
      chain,
      settlement,
      booksInStep: () => desk.inStepWithStore,
      leaseLost: lease?.lost ?? new Promise<Error>(() => {}),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
