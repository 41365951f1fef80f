import type { Clock } from '../../../ports/clock.js';
import type { Logger } from '../../../ports/logger.js';
import type { Store } from '../../../ports/store/ports.js';
import type { OperatorTransactions } from '../operator-transactions.js';
import type { ChainWatch } from './chain-watch.js';
import type { ReactorIndexer } from './reactor-indexer.js';

/**
 * Another reader of the chain with a cursor of its own (the AMM indexer): rewound with the reactor's
 * indexer when the chain lost blocks, and caught up after it.
 */
export interface ChainFollower {
  rewindTo(block: bigint): Promise<void>;
  catchUp(): Promise<void>;
}

export interface ChainReconcilerDeps {
  readonly store: Pick<Store, 'settlements' | 'cancellations'>;
  readonly indexer: Pick<ReactorIndexer, 'rewindTo' | 'catchUp'>;
  readonly followers?: readonly ChainFollower[];
  readonly transactions: Pick<OperatorTransactions, 'chainWentBack'>;
  readonly watch: Pick<ChainWatch, 'look' | 'forgetAfter'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Brings the store in line with a chain whose blocks after `common` are gone: the store is the
 * record of intent, the chain the truth of what happened. Fills recorded as settled after it go
 * back in the queue (a fill the reactor still reports settled is then found by its id, or recorded
 * without an event), the indexer reads again from it, and cancellations and nonce floors mined
 * after it, or sent and never seen mined, are sent again (the reactor takes both twice). Runs at
 * start-up with the head the service found, and whenever the chain watch sees blocks lost.
 */
export class ChainReconciler {
  /** The look or restart under way: the block it reconciled from, or null when nothing was lost. */
  private reconciling: Promise<bigint | null> | null = null;

  constructor(private readonly deps: ChainReconcilerDeps) {}

  /** Start-up: nothing the service recorded after `head` (the head it found) is on the chain. */
  async start(head: bigint): Promise<void> {
    await this.reconcile(head);
    await this.deps.watch.look();
  }

  /**
   * One look at the chain while running: reconciles when blocks were lost (true: there is work to
   * send again), else indexes the new blocks.
   */
  async follow(): Promise<boolean> {
    const lost = await this.verify();
    if (!lost) {
      await this.deps.indexer.catchUp();
      await this.eachFollower((follower) => follower.catchUp());
    }
    return lost;
  }

  /**
   * Looks at the chain and reconciles when it lost blocks; true when it did. Concurrent calls share
   * one look: the relay calls it before it picks work, so that nothing goes to the chain ahead of
   * fills the chain lost.
   */
  async verify(): Promise<boolean> {
    return (await (this.reconciling ?? this.share(this.lookAndReconcile()))) !== null;
  }

  /**
   * The chain was started again from a saved state whose head was `head`: reconciled from there,
   * after any look under way. A look that reached the new chain found the loss itself and
   * reconciled from at or below `head`: it is not done again, since what was sent since then is on
   * the new chain, and reconciling once more would send it twice.
   */
  async restarted(head: bigint): Promise<boolean> {
    const under = this.reconciling ?? Promise.resolve(null);
    await this.share(
      under
        .catch(() => null)
        .then(async (common) => {
          if (common !== null && common <= head) return common;
          this.deps.watch.forgetAfter(head);
          await this.reconcile(head);
          return head;
        }),
    );
    return true;
  }

  /** Makes `work` the one under way until it ends. */
  private share(work: Promise<bigint | null>): Promise<bigint | null> {
    const shared: Promise<bigint | null> = work.finally(() => {
      if (this.reconciling === shared) this.reconciling = null;
    });
    this.reconciling = shared;
    return shared;
  }

  private async lookAndReconcile(): Promise<bigint | null> {
    const common = await this.deps.watch.look();
    if (common === null) return null;
    await this.reconcile(common);
    return common;
  }

  private async reconcile(common: bigint): Promise<void> {
    const { store, indexer, transactions, clock, logger } = this.deps;
    // Transactions in flight went with the lost blocks, and the operator's nonce went back.
    transactions.chainWentBack();
    const fills = await store.settlements.requeueSettledAfter(common, clock.now());
    await indexer.rewindTo(common);
    await indexer.catchUp();
    const { cancellations, floors } = await store.cancellations.requeueLostAfter(common, clock.now());
    if (fills > 0 || cancellations > 0 || floors > 0) {
      logger.warn(
        { fills, cancellations, floors, block: common.toString() },
        'the chain lost settled fills, cancellations or nonce floors; sending them again',
      );
    }
    // Read-only followers last: what the reactor lost is sent again even if one of them fails.
    await this.eachFollower(async (follower) => {
      await follower.rewindTo(common);
      await follower.catchUp();
    });
  }

  /**
   * Runs work on each follower; a failing follower is logged and tried again at the next poll, and
   * never holds up settlement, which waits on this reconciler.
   */
  private async eachFollower(work: (follower: ChainFollower) => Promise<void>): Promise<void> {
    for (const follower of this.deps.followers ?? []) {
      await work(follower).catch((error: unknown) =>
        this.deps.logger.warn({ err: error }, 'a chain follower failed; it tries again'),
      );
    }
  }
}
