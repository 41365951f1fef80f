import type { FastifyBaseLogger } from 'fastify';
import type { ChainContext } from '../adapters/chain/chain-context.js';
import { devnetPairLedgerIds } from '../adapters/chain/devnet/devnet-pair-ids.js';
import { AmmIndexer } from '../adapters/chain/indexing/amm-indexer.js';
import { ChainReconciler } from '../adapters/chain/indexing/chain-reconciler.js';
import { ChainWatch } from '../adapters/chain/indexing/chain-watch.js';
import { ReactorIndexer } from '../adapters/chain/indexing/reactor-indexer.js';
import { openChain } from '../adapters/chain/open-chain.js';
import { OperatorTransactions } from '../adapters/chain/operator-transactions.js';
import { CancelRelay } from '../adapters/chain/settlement/cancel-relay.js';
import { ExpiredOrderSweeper } from '../adapters/chain/settlement/expired-order-sweeper.js';
import { highestSettledFillAbove } from '../adapters/chain/settlement/settled-fill-ids.js';
import { Settler, type SettlerDeps } from '../adapters/chain/settlement/settler.js';
import { MirrorNodeContractIds } from '../adapters/mirror-node/mirror-node-contract-ids.js';
import type { DeskEvents } from '../application/desk/desk-events.js';
import type { Metrics } from '../ports/metrics.js';
import type { PairLedgerIds } from '../ports/pair-ledger-ids.js';
import type { PoolReservesListener, SettlementDesk } from '../ports/settlement-desk.js';
import type { Store } from '../ports/store/ports.js';
import type { Closers } from './closers.js';
import type { Config } from './config.js';

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

/** How often the indexers look for new reactor and AMM events. */
const INDEX_POLL_MS = 500;

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
export async function openSettlementChain(
  config: Config,
  store: Store,
  logger: FastifyBaseLogger,
  closers: Closers,
): Promise<ChainContext | null> {
  const chain = await openChain(config, store, logger);
  if (chain === null) return null;
  closers.add(() => chain.close());
  await skipSettledFillIds(chain, store, logger);
  return chain;
}

/** The pairs' ledger ids come from where the accounts' keys do: the mirror node, or the devnet's own numbering. */
function pairIdsOf(config: Config): PairLedgerIds {
  return config.mirrorNodeUrl === null ? devnetPairLedgerIds : new MirrorNodeContractIds({ baseUrl: config.mirrorNodeUrl });
}

/**
 * Starts the settler, the relay and the indexer after reconciling with the chain, follows the
 * chain (reconciling again whenever it loses blocks), and registers their stop.
 */
export async function startSettlement(
  config: Config,
  chain: ChainContext,
  deps: Pick<SettlerDeps, 'store' | 'registry' | 'fees' | 'clock' | 'logger'> & {
    /** What wakes the settler and the relay: the desk's stored commit groups, here or over the engines' feed. */
    deskEvents: Pick<DeskEvents, 'subscribe'>;
    /** Where the reactor's verdicts go: the desk in this process, or the engines' command logs. */
    desk: SettlementDesk & PoolReservesListener;
    metrics: Metrics;
  },
  closers: Closers,
): Promise<Settlement> {
  if (config.chain.kind === 'off') throw new Error('settlement needs a chain');
  const transactions = new OperatorTransactions(chain);
  const watch = new ChainWatch(chain);
  const amm =
    chain.amm === null ? null : new AmmIndexer(chain, chain.amm, deps.store, deps.logger, pairIdsOf(config), watch, deps.desk);
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
  closers.add(async () => unsubscribe());
  closers.add(() => settler.stop());
  closers.add(() => cancels.stop());
  closers.add(async () => sweeper?.stop());
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
  closers.add(async () => {
    await stopFollowing();
    await indexer.catchUp().catch(() => {});
  });
  return { chain, transactions, indexer, amm, settler, cancels, stopFollowing };
}
