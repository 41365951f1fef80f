import { performance } from 'node:perf_hooks';
import { AppError } from '../../domain/errors.js';
import type { TurnWrite } from '../../domain/orders/order-records.js';
import type { OrderTurn } from '../../domain/orders/order-turn.js';
import { PendingWrites } from '../../domain/orders/pending-writes.js';
import type { Logger } from '../../ports/logger.js';
import { type Metrics, noMetrics } from '../../ports/metrics.js';
import type { Store } from '../../ports/store/ports.js';
import { GroupCommit } from '../group-commit.js';
import type { DeskEvents } from './desk-events.js';
import type { DeskState } from './desk-state.js';

/** Where a turn's command stands in its shard's command log: stored with the turn's commit group. */
export interface CommandPosition {
  readonly shard: number;
  readonly seq: bigint;
}

/** New orders after which a commit group is stored even while more turns wait. */
export const MAX_GROUP_ORDERS = 2_000;

/** How long (ms) the desk refuses turns after a failed commit: a full disk is not tried on every request. */
export const TRADING_PAUSE_MS = 1_000;

/**
 * The desk's serial stage: runs turns one at a time, so the checks made inside a turn cannot race,
 * and stores what turns staged in commit groups (one transaction for the turns that queue up
 * together). A turn's answer waits until its commit group is stored; what a stored group changed
 * is published on `events` first. If a commit fails, memory is ahead of the store: the sequencer
 * stores nothing more and, right after the turns already queued, reloads the desk's state as the
 * store holds it (the reads that follow the engines see what was answered again). The failed group was
 * one transaction, so none of it is stored, and none of its requests was answered but with the
 * failure. Turns are refused for {@link TRADING_PAUSE_MS}; the next one tries the store again, so
 * trading resumes when writes do.
 */
export class DeskSequencer {
  private tail: Promise<unknown> = Promise.resolve();
  /** Memory may be ahead of the store: nothing is stored or run until the books are rebuilt. */
  private memoryAhead = false;
  /** performance.now() until which turns are refused, after a failed commit. */
  private pausedUntil = Number.NEGATIVE_INFINITY;
  /** Rebuilt after a failure, and no group stored since. */
  private rebuilt = false;
  private readonly commits: GroupCommit<PendingWrites>;

  constructor(
    private readonly store: Store,
    private readonly events: DeskEvents,
    private readonly logger: Logger,
    /** What the turns change in memory; reloaded from the store after a failed commit. */
    private readonly state: Pick<DeskState, 'reload'>,
    private readonly maxGroupOrders = MAX_GROUP_ORDERS,
    private readonly metrics: Metrics = noMetrics,
  ) {
    this.commits = new GroupCommit<PendingWrites>({
      open: () => new PendingWrites(),
      isEmpty: (group) => group.isEmpty,
      store: (group) => this.commitGroup(group),
      // A commit runs between turns, never inside one.
      run: (commit) => {
        this.tail = this.tail.then(commit);
      },
    });
  }

  /** Whether the books hold what the store holds: false from a failed commit until they are rebuilt from the store. */
  get inStepWithStore(): boolean {
    return !this.memoryAhead;
  }

  /** What turns of the open commit group wrote: later turns must see it before the store does. */
  get pending(): PendingWrites {
    return this.commits.current.contents;
  }

  /**
   * Runs a turn after the ones before it; a failed turn does not block the ones after it. The
   * group is stored once the event loop has had a turn of its own (so requests arriving together
   * under load join it), or at once when it has grown large. A turn that applies a command of a
   * shard's log names its `position`: the group stores it with its turns, whether the work
   * succeeded or was refused (a refusal is the command's answer too), so the command is never
   * applied again.
   */
  run<T>(work: () => Promise<T>, position?: CommandPosition): Promise<T> {
    const queued = performance.now();
    let started = queued;
    let ended = queued;
    const ran = this.tail.then(async () => {
      started = performance.now();
      if (this.memoryAhead) await this.repair();
      if (performance.now() < this.pausedUntil) throw new AppError('TRADING_UNAVAILABLE');
      let value: T;
      // The group open when the work ends holds its writes: a turn that stored the group before
      // it (flush) must wait for the one it staged into, not the one that was open when it began.
      let group = this.commits.current;
      try {
        value = await work();
      } finally {
        group = this.commits.current;
        if (position !== undefined) group.contents.advance(position.shard, position.seq);
        if (this.pending.size >= this.maxGroupOrders) await this.flush();
        else this.commits.schedule();
        ended = performance.now();
      }
      return { value, group };
    });
    this.tail = ran.catch(() => {});
    return ran.then(async ({ value, group }) => {
      await group.stored;
      const seconds = (from: number, to: number) => (to - from) / 1_000;
      this.metrics.deskTurn({
        waited: seconds(queued, started),
        ran: seconds(started, ended),
        stored: seconds(ended, performance.now()),
      });
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

  /** Rebuilds the books from the store once memory is ahead of it; throws while the store cannot be read. */
  private async repair(): Promise<void> {
    if (!this.memoryAhead) return;
    // Turns that ran on the failed memory staged into the open group: it must never be stored.
    this.commits.discard(new AppError('TRADING_UNAVAILABLE'));
    try {
      await this.state.reload();
    } catch (error) {
      this.logger.error({ err: error }, 'the books could not be rebuilt from the store; trading stays suspended');
      throw new AppError('TRADING_UNAVAILABLE', undefined, { cause: error });
    }
    this.memoryAhead = false;
    this.rebuilt = true;
    this.logger.warn('the books were rebuilt from the store after a failed commit; trading resumes once a write succeeds');
  }

  private async commitGroup(group: PendingWrites): Promise<void> {
    if (this.memoryAhead) throw new AppError('TRADING_UNAVAILABLE');
    try {
      const started = performance.now();
      const ids = await this.store.orders.commitTurns(group.writes, group.positions);
      this.metrics.storeCommit((performance.now() - started) / 1_000, group.writes.length);
      this.events.publish(() => group.committed(ids));
    } catch (error) {
      this.memoryAhead = true;
      this.rebuilt = false;
      this.pausedUntil = performance.now() + TRADING_PAUSE_MS;
      this.logger.fatal(
        { err: error },
        'engine turns could not be stored; trading is suspended until the store takes writes again',
      );
      // After the turns already queued (and after the one that flushed, if one did): never inside a turn.
      this.tail = this.tail.then(() => this.repair()).catch(() => {});
      throw new AppError('TRADING_UNAVAILABLE', undefined, { cause: error });
    }
    if (this.rebuilt) {
      this.rebuilt = false;
      this.logger.info('the store takes writes again; trading resumed');
    }
  }
}
