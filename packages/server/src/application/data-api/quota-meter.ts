import { monthOf, type UtcMonth } from '../../domain/data-api/utc-month.js';
import { AppError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports/store/api-key-ports.js';
import { GroupCommit } from '../group-commit.js';

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

/** Increments waiting to be stored: requests admitted per count. */
type Increments = Map<MonthCount, number>;

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
  private readonly commits: GroupCommit<Increments>;
  /** The month the counts were last swept in. */
  private sweptMonth = 0;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.commits = new GroupCommit<Increments>({
      open: () => new Map(),
      store: (added) => this.commit(added),
      spacingMs: COMMIT_SPACING_MS,
    });
  }

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
    const group = this.commits.current;
    group.contents.set(count, (group.contents.get(count) ?? 0) + 1);
    this.commits.schedule();
    return group.stored;
  }

  private async commit(added: Increments): Promise<void> {
    const counts = [...added].map(([count, requests]) => ({ keyId: count.keyId, monthStart: count.monthStart, requests }));
    try {
      await this.store.addRequests(counts);
    } catch (error) {
      // Nobody hears that these requests were admitted, so they are not counted either.
      for (const [count, requests] of added) count.served -= requests;
      this.logger.error({ err: error }, 'data API usage could not be stored');
      throw new AppError('USAGE_UNAVAILABLE', undefined, { cause: error });
    } finally {
      this.forgetPastMonths();
    }
  }

  /** Once a month has ended, drops its counts: what they held is stored. */
  private forgetPastMonths(): void {
    const current = monthOf(this.clock.now()).start;
    if (current === this.sweptMonth) return;
    this.sweptMonth = current;
    for (const [id, count] of this.counts) {
      const pending = count instanceof Promise || this.commits.current.contents.has(count);
      if (!pending && count.monthStart < current) this.counts.delete(id);
    }
  }
}
