import { AppError } from '../../domain/errors.js';
import { matchesNothing } from '../../domain/markets/market-records.js';
import type { BookDepthChange } from '../../domain/orders/desk-commit.js';
import type { EngineFeedSubscriber, EnginePublication } from '../../ports/engine-feed.js';
import type { Logger } from '../../ports/logger.js';
import type { DeskEvents } from '../desk/desk-events.js';
import type { MarketRegistry } from '../markets/market-registry.js';
import type { BookView, BookViews } from './book-views.js';
import { ReplicaBook } from './replica-book.js';

export interface ReplicaOptions {
  /** How long a snapshot request waits for the book's engine. */
  readonly snapshotTimeoutMs: number;
  /** Pause before asking again for a snapshot that did not come. */
  readonly retryMs: number;
}

/** A book's replica and whether it is in step with its engine: changes that arrive while it is not wait for the snapshot. */
interface Replica {
  readonly bookId: number;
  readonly book: ReplicaBook;
  inStep: boolean;
  waiting: BookDepthChange[];
  resyncing: boolean;
}

/**
 * The books of a gateway (ROLE=gateway): a replica of each book, kept from the engines' feed, and
 * the feed's commits handed to this process's desk events, so the streams serve them as the
 * engine's own process would. A replica that sees a gap in its book's update ids (a publication
 * lost on the way) asks the book's engine for a snapshot; until it has one, the book's depth and
 * quotes answer TRADING_UNAVAILABLE, and the stream's followers see the gap in the diffs' ids and
 * read the depth again, as the reliable procedure expects.
 */
export class ReplicatedBooks implements BookViews {
  private readonly replicas = new Map<number, Replica>();
  private stopFeed: (() => Promise<void>) | null = null;
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly registry: MarketRegistry,
    private readonly feed: EngineFeedSubscriber,
    private readonly events: DeskEvents,
    private readonly logger: Logger,
    private readonly options: ReplicaOptions,
  ) {}

  /** Follows the feed, then asks for a snapshot of every known book (changes that arrive meanwhile wait for it). */
  async start(): Promise<void> {
    this.stopFeed = await this.feed.subscribe((publication) => this.receive(publication));
    await Promise.all(this.registry.list().map((market) => this.resync(this.replicaOf(market.book.id))));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    await this.stopFeed?.();
  }

  view(bookId: number): BookView | undefined {
    if (this.registry.get(bookId) === undefined) return undefined;
    const replica = this.replicaOf(bookId);
    if (!replica.inStep)
      throw new AppError('TRADING_UNAVAILABLE', 'This gateway is reading the order book from its engine again; try again');
    return replica.book;
  }

  private replicaOf(bookId: number): Replica {
    let replica = this.replicas.get(bookId);
    if (replica === undefined) {
      const book = new ReplicaBook(() => {
        const market = this.registry.get(bookId);
        return market === undefined || matchesNothing(market.book);
      });
      replica = { bookId, book, inStep: false, waiting: [], resyncing: false };
      this.replicas.set(bookId, replica);
    }
    return replica;
  }

  private receive(publication: EnginePublication): void {
    for (const [bookId, reserves] of publication.pools) {
      const replica = this.replicas.get(bookId);
      if (replica?.inStep) replica.book.pool = reserves ?? undefined;
    }
    for (const change of publication.commit.depth) {
      const replica = this.replicaOf(change.bookId);
      if (!replica.inStep) {
        replica.waiting.push(change);
        void this.resync(replica);
        continue;
      }
      if (replica.book.apply(change) === 'gap') {
        this.logger.warn(
          { bookId: change.bookId, expected: replica.book.lastUpdateId + 1, got: change.firstUpdateId },
          'a depth change was missed: reading the book again',
        );
        replica.inStep = false;
        replica.waiting = [change];
        void this.resync(replica);
      }
    }
    this.events.publish(() => publication.commit);
  }

  private async resync(replica: Replica): Promise<void> {
    const { bookId } = replica;
    if (replica.resyncing || this.stopped) return;
    replica.resyncing = true;
    try {
      const snapshot = await this.feed.snapshot(bookId, this.options.snapshotTimeoutMs);
      replica.book.load(snapshot.depth, snapshot.pool ?? undefined);
      const waiting = replica.waiting;
      replica.waiting = [];
      for (const change of waiting) {
        if (replica.book.apply(change) === 'gap') throw new Error(`book ${bookId}: changes missing after the snapshot`);
      }
      replica.inStep = true;
    } catch (error) {
      this.logger.warn({ err: error, bookId }, "the book's engine did not answer a snapshot request; asking again");
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.resync(replica);
      }, this.options.retryMs);
      this.timers.add(timer);
    } finally {
      replica.resyncing = false;
    }
  }
}
