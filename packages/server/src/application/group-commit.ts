import { performance } from 'node:perf_hooks';

/**
 * Work waiting to be stored in one transaction, and the promise its requests wait on: nobody is
 * answered before what answered them is durable.
 */
export class CommitGroup<T> {
  /** Resolves when the group is stored; rejects with what the commit threw when it is not. */
  readonly stored: Promise<void>;
  private settle: { resolve: () => void; reject: (error: unknown) => void } = { resolve: () => {}, reject: () => {} };

  constructor(readonly contents: T) {
    this.stored = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Nobody may be waiting when a group fails (a turn that threw); never leave that unhandled.
    this.stored.catch(() => {});
  }

  resolve(): void {
    this.settle.resolve();
  }

  reject(error: unknown): void {
    this.settle.reject(error);
  }
}

export interface GroupCommitOptions<T> {
  /** Contents of a new, empty group. */
  open(): T;
  /** Stores a group's contents in one transaction; what it throws is what the group's waiters see. */
  store(contents: T): Promise<void>;
  /** A group with nothing to store resolves without a transaction. Default: never empty. */
  isEmpty?(contents: T): boolean;
  /**
   * Least time between the starts of two commits (ms): a busy writer lets the requests of the next
   * event-loop turns join until this much time has passed. Default 0.
   */
  spacingMs?: number;
  /** Runs a scheduled commit; default at once. The desk queues it behind its turns instead. */
  run?(commit: () => Promise<void>): void;
}

/**
 * Group commit, the pattern of a database's log writer: requests that arrive close together join
 * one group and share one transaction (one fsync). A scheduled commit waits until the event loop
 * has had a turn of its own, so requests arriving together under load join the group; a writer
 * may also commit at once (when a group has grown large, or before reading what it stored).
 */
export class GroupCommit<T> {
  private group: CommitGroup<T>;
  private scheduled = false;
  /** performance.now() when the last commit started. */
  private lastCommit = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: GroupCommitOptions<T>) {
    this.group = new CommitGroup(options.open());
  }

  /** The group new work joins. */
  get current(): CommitGroup<T> {
    return this.group;
  }

  /** Commits the current group once the event loop has had a turn; calls before then ask once. */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const spacing = this.options.spacingMs ?? 0;
    const due = () => {
      if (performance.now() - this.lastCommit < spacing) {
        setImmediate(due);
        return;
      }
      this.scheduled = false;
      const run = this.options.run ?? ((commit: () => Promise<void>) => void commit());
      run(() => this.commit());
    };
    setImmediate(due);
  }

  /** Fails the current group without storing it (its waiters get `error`) and opens the next. */
  discard(error: unknown): void {
    const group = this.group;
    this.group = new CommitGroup(this.options.open());
    group.reject(error);
  }

  /** Stores the current group now and opens the next; never throws (the group's waiters hear of a failure). */
  async commit(): Promise<void> {
    const group = this.group;
    this.group = new CommitGroup(this.options.open());
    if (this.options.isEmpty?.(group.contents) === true) {
      group.resolve();
      return;
    }
    this.lastCommit = performance.now();
    try {
      await this.options.store(group.contents);
      group.resolve();
    } catch (error) {
      group.reject(error);
    }
  }
}
