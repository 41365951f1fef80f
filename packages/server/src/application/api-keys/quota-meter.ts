import type { ApiKeyRecord, MonthlyUsage } from '../../domain/data-api/api-key.js';
import { monthOf, type UtcMonth } from '../../domain/data-api/utc-month.js';
import { AppError, failingAs } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { CounterId, QuotaCounters } from '../../ports/quota-counters.js';
import type { ApiKeyStore } from '../../ports/store/api-key-ports.js';
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

/** Requests admitted per count and epoch, waiting to be stored. */
type Increments = Map<string, { readonly id: CounterId; readonly epoch: string; requests: number }>;

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
 * its count happen together in one atomic step of the counters (this process's memory, or Redis
 * shared by every gateway), so concurrent requests can never both take the last unit of a quota.
 * The counts are stored before any admitted request is answered: requests admitted close together
 * form a commit group, written in one transaction, so a restart finds every answered request
 * counted and none twice. Refused requests are not counted.
 */
export class QuotaMeter {
  private readonly commits: GroupCommit<Increments>;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly counters: QuotaCounters,
  ) {
    let storing = Promise.resolve();
    this.commits = new GroupCommit<Increments>({
      open: () => new Map(),
      store: (added) => this.commit(added),
      isEmpty: (added) => added.size === 0,
      spacingMs: COMMIT_SPACING_MS,
      // One commit at a time: the requests admitted while one is stored join the next group, so a
      // store that takes round trips (PostgreSQL) commits fewer, larger groups as the load grows.
      run: (commit) => {
        storing = storing.then(commit);
      },
    });
  }

  /** Counts one request of an allowed key unless its quota is used up without overage; resolves once the count is stored. */
  async admit(key: ApiKeyRecord): Promise<QuotaVerdict> {
    const month = monthOf(this.clock.now());
    const id = { keyId: key.id, monthStart: month.start };
    const taken = await failingAs(
      'USAGE_UNAVAILABLE',
      this.counters.take(id, key.overageAllowed ? null : key.monthlyQuota, this.storedCount(id)),
    );
    const verdict = { admitted: taken.admitted, ...figures(key, taken.served, month) };
    if (taken.admitted) await this.record(id, taken.epoch);
    return verdict;
  }

  /** This month's figures of a key without counting anything (for keys that are refused). */
  async peek(key: ApiKeyRecord): Promise<QuotaFigures> {
    const month = monthOf(this.clock.now());
    const id = { keyId: key.id, monthStart: month.start };
    return figures(key, await failingAs('USAGE_UNAVAILABLE', this.counters.served(id, this.storedCount(id))), month);
  }

  private storedCount(id: CounterId): () => Promise<number> {
    return () => this.store.requests(id.keyId, id.monthStart);
  }

  private record(id: CounterId, epoch: string): Promise<void> {
    const group = this.commits.current;
    const name = `${id.keyId}:${id.monthStart}:${epoch}`;
    const increment = group.contents.get(name);
    if (increment === undefined) group.contents.set(name, { id, epoch, requests: 1 });
    else increment.requests += 1;
    this.commits.schedule();
    return group.stored;
  }

  private async commit(added: Increments): Promise<void> {
    const counts = [...added.values()].map(({ id, requests }) => ({ ...id, requests }));
    let totals: readonly MonthlyUsage[];
    try {
      totals = await this.store.addRequests(counts);
    } catch (error) {
      // Nobody hears that these requests were admitted, so they are not counted either.
      await Promise.allSettled([...added.values()].map(({ id, requests, epoch }) => this.counters.giveBack(id, requests, epoch)));
      this.logger.error({ err: error }, 'data API usage could not be stored');
      throw new AppError('USAGE_UNAVAILABLE', undefined, { cause: error });
    }
    // Stored: the answers may go. Counters that lost theirs meanwhile learn the totals (best effort:
    // the next commit tells them again).
    await this.counters
      .atLeast(totals.map(({ keyId, monthStart, requests }) => ({ keyId, monthStart, served: requests })))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'the quota counters could not be raised to the stored totals'));
  }
}
