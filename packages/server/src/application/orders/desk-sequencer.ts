import { AppError } from '../../domain/errors.js';
import type { TurnWrite } from '../../domain/orders/order-records.js';
import type { OrderTurn } from '../../domain/orders/order-turn.js';
import { PendingWrites } from '../../domain/orders/pending-writes.js';
import type { Logger } from '../../ports/logger.js';
import type { Store } from '../../ports/store/ports.js';
import { GroupCommit } from '../group-commit.js';
import type { DeskEvents } from './desk-events.js';

/** New orders after which a commit group is stored even while more turns wait. */
export const MAX_GROUP_ORDERS = 2_000;

/**
 * The desk's serial stage: runs turns one at a time, so the checks made inside a turn cannot race,
 * and stores what turns staged in commit groups (one transaction for the turns that queue up
 * together). A turn's answer waits until its commit group is stored; what a stored group changed
 * is published on `events` first. If a commit fails, memory is ahead of the store: the sequencer
 * then refuses all further work and a restart recovers from the store.
 */
export class DeskSequencer {
  private tail: Promise<unknown> = Promise.resolve();
  private broken = false;
  private readonly commits: GroupCommit<PendingWrites>;

  constructor(
    private readonly store: Store,
    private readonly events: DeskEvents,
    private readonly logger: Logger,
    private readonly maxGroupOrders = MAX_GROUP_ORDERS,
  ) {
    this.commits = new GroupCommit<PendingWrites>({
      open: () => new PendingWrites(),
      isEmpty: (group) => group.writes.length === 0,
      store: (group) => this.commitGroup(group),
      // A commit runs between turns, never inside one.
      run: (commit) => {
        this.tail = this.tail.then(commit);
      },
    });
  }

  /** What turns of the open commit group wrote: later turns must see it before the store does. */
  get pending(): PendingWrites {
    return this.commits.current.contents;
  }

  /**
   * Runs a turn after the ones before it; a failed turn does not block the ones after it. The
   * group is stored once the event loop has had a turn of its own (so requests arriving together
   * under load join it), or at once when it has grown large.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    const ran = this.tail.then(async () => {
      if (this.broken) throw new AppError('TRADING_UNAVAILABLE');
      let value: T;
      // The group open when the work ends holds its writes: a turn that stored the group before
      // it (flush) must wait for the one it staged into, not the one that was open when it began.
      let group = this.commits.current;
      try {
        value = await work();
      } finally {
        group = this.commits.current;
        if (this.pending.size >= this.maxGroupOrders) await this.flush();
        else this.commits.schedule();
      }
      return { value, group };
    });
    this.tail = ran.catch(() => {});
    return ran.then(async ({ value, group }) => {
      await group.stored;
      return value;
    });
  }

  /** Adds a turn's changes to the commit group. */
  stage(turn: OrderTurn): TurnWrite {
    const write = turn.write();
    this.pending.add(write, turn.publication());
    return write;
  }

  /** Stores the commit group now (inside a turn: before reading what earlier turns wrote). */
  flush(): Promise<void> {
    return this.commits.commit();
  }

  private async commitGroup(group: PendingWrites): Promise<void> {
    try {
      const ids = await this.store.orders.commitTurns(group.writes);
      this.events.publish(() => group.committed(ids));
    } catch (error) {
      this.broken = true;
      this.logger.fatal({ err: error }, 'engine turns could not be stored; trading is suspended until a restart');
      throw new AppError('TRADING_UNAVAILABLE', undefined, { cause: error });
    }
  }
}
