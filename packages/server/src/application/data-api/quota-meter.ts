import { performance } from 'node:perf_hooks';
import { monthOf, type UtcMonth } from '../../domain/data-api/utc-month.js';
import { AppError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports/store/api-key-ports.js';

/** The quota figures of a key this month, as the four x-ratelimit headers carry them. */
export interface QuotaFigures {
  readonly limit: number;
  readonly remaining: number;
  /** Requests served above the limit this month (overage keys only). */
  readonly additionalTotal: number;
  /** Unix ms when the quota resets: the end of the current UTC month. */
  readonly resetMs: number;
}

export interface QuotaVerdict extends QuotaFigures {
  readonly admitted: boolean;
}

/** Requests served to one key in one month: stored ones plus those of the commit group on its way. */
interface MonthCount {
  readonly keyId: number;
  readonly monthStart: number;
  served: number;
}

/** Increments waiting to be stored, and the requests waiting for them. */
interface CommitGroup {
  readonly added: Map<MonthCount, number>;
  readonly stored: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Least time between two commits of counts. An idle meter commits once the event loop has had a
 * turn; a busy one lets the requests of the next turns join until this much time has passed since
 * its last commit, so one commit serves many of them.
 */
const COMMIT_SPACING_MS = 0.25;

function figures(key: ApiKeyRecord, served: number, month: UtcMonth): QuotaFigures {
  return {
    limit: key.monthlyQuota,
    remaining: Math.max(0, key.monthlyQuota - served),
    additionalTotal: key.overageAllowed ? Math.max(0, served - key.monthlyQuota) : 0,
    resetMs: month.end,
  };
}

function openGroup(): CommitGroup {
  let resolve = () => {};
  let reject: (error: unknown) => void = () => {};
  const stored = new Promise<void>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  // Every waiter handles the outcome; this keeps a group nobody waits for from crashing the process.
  stored.catch(() => {});
  return { added: new Map(), stored, resolve, reject };
}

/**
 * Counts data API requests against the monthly quotas, exactly. The decision to admit a request and
 * its count happen together in one synchronous step on the event loop, so concurrent requests can
 * never both take the last unit of a quota. The counts are stored before any admitted request is
 * answered: requests admitted close together form a commit group, written in one transaction, so a
 * restart finds every answered request counted and none twice. Refused requests are not counted.
 *
 * One process owns the counters of a store; the scale-out deployment would count in Redis instead.
 */
export class QuotaMeter {
  private readonly counts = new Map<string, MonthCount | Promise<MonthCount>>();
  private group: CommitGroup | undefined;
  /** performance.now() of the last commit. */
  private lastCommit = Number.NEGATIVE_INFINITY;
  /** The month the counts were last swept in. */
  private sweptMonth = 0;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Counts one request of an allowed key unless its quota is used up without overage; resolves once the count is stored. */
  async admit(key: ApiKeyRecord): Promise<QuotaVerdict> {
    const month = monthOf(this.clock.now());
    const count = await this.countOf(key.id, month.start);
    if (!key.overageAllowed && count.served >= key.monthlyQuota) return { admitted: false, ...figures(key, count.served, month) };
    count.served += 1;
    const verdict = { admitted: true, ...figures(key, count.served, month) };
    await this.record(count);
    return verdict;
  }

  /** This month's figures of a key without counting anything (for keys that are refused). */
  async peek(key: ApiKeyRecord): Promise<QuotaFigures> {
    const month = monthOf(this.clock.now());
    return figures(key, (await this.countOf(key.id, month.start)).served, month);
  }

  private countOf(keyId: number, monthStart: number): MonthCount | Promise<MonthCount> {
    const id = `${keyId}:${monthStart}`;
    const known = this.counts.get(id);
    if (known !== undefined) return known;
    // Requests arriving while the stored count loads share the one load, then count on the same object.
    const loading = this.store.requests(keyId, monthStart).then(
      (served) => {
        const count = { keyId, monthStart, served };
        this.counts.set(id, count);
        return count;
      },
      (error: unknown) => {
        this.counts.delete(id);
        throw new AppError('USAGE_UNAVAILABLE', undefined, { cause: error });
      },
    );
    this.counts.set(id, loading);
    return loading;
  }

  private record(count: MonthCount): Promise<void> {
    if (this.group === undefined) {
      const group = openGroup();
      this.group = group;
      const commit = () => {
        if (performance.now() - this.lastCommit < COMMIT_SPACING_MS) {
          setImmediate(commit);
          return;
        }
        this.group = undefined;
        void this.commit(group);
      };
      setImmediate(commit);
    }
    const { added } = this.group;
    added.set(count, (added.get(count) ?? 0) + 1);
    return this.group.stored;
  }

  private async commit(group: CommitGroup): Promise<void> {
    const counts = [...group.added].map(([count, requests]) => ({ keyId: count.keyId, monthStart: count.monthStart, requests }));
    this.lastCommit = performance.now();
    try {
      await this.store.addRequests(counts);
      group.resolve();
    } catch (error) {
      // Nobody hears that these requests were admitted, so they are not counted either.
      for (const [count, requests] of group.added) count.served -= requests;
      this.logger.error({ err: error }, 'data API usage could not be stored');
      group.reject(new AppError('USAGE_UNAVAILABLE', undefined, { cause: error }));
    }
    this.forgetPastMonths();
  }

  /** Once a month has ended, drops its counts: what they held is stored. */
  private forgetPastMonths(): void {
    const current = monthOf(this.clock.now()).start;
    if (current === this.sweptMonth) return;
    this.sweptMonth = current;
    for (const [id, count] of this.counts) {
      const pending = count instanceof Promise || this.group?.added.has(count) === true;
      if (!pending && count.monthStart < current) this.counts.delete(id);
    }
  }
}
