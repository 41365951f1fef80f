import { performance } from 'node:perf_hooks';
import { type EngineCommand, type EngineEvent, MatchingEngine, type OpenOrder } from '@dex/core';
import { matchesNothing } from '../../domain/markets/market-records.js';
import { type Metrics, noMetrics } from '../../ports/metrics.js';
import type { Market, MarketRegistry } from '../markets/market-registry.js';
import { BookPools } from './book-pools.js';

/** What a restart puts back on one book: its resting orders, oldest first, and its update id. */
export interface BookRecovery {
  readonly resting: readonly OpenOrder[];
  readonly lastUpdateId: number;
}

/**
 * Owns one matching engine per book: the single writer of each book. Commands run synchronously,
 * so JavaScript's run-to-completion gives every book a strict order of events; what the events
 * mean for orders and the store is the trading desk's business. A book with `isAmmEnabled` gets
 * an engine that routes opted-in takers into its pool, whose snapshot `pools` keeps.
 */
export class EngineHost {
  private readonly engines = new Map<number, MatchingEngine>();
  private collected: EngineEvent[] = [];
  readonly pools = new BookPools();

  constructor(
    private readonly registry: MarketRegistry,
    private readonly metrics: Metrics = noMetrics,
  ) {
    registry.onChange((markets) => {
      for (const market of markets) this.follow(market);
    });
  }

  /**
   * Creates the engine of every known book, putting back what a previous run left resting; engines
   * made before (memory ahead of a failed commit) are replaced.
   */
  start(recovered: ReadonlyMap<number, BookRecovery> = new Map()): void {
    this.engines.clear();
    for (const market of this.registry.list()) this.follow(market, recovered.get(market.book.id));
  }

  engine(bookId: number): MatchingEngine | undefined {
    return this.engines.get(bookId);
  }

  /** The engine as market data reads it (the engines are always in step here; see the desk's inStepWithStore). */
  view(bookId: number): MatchingEngine | undefined {
    return this.engines.get(bookId);
  }

  /** Applies commands to one book and returns the events they produced, in order. */
  execute(bookId: number, commands: readonly EngineCommand[]): EngineEvent[] {
    const engine = this.engines.get(bookId);
    if (engine === undefined) throw new Error(`no engine for book ${bookId}`);
    this.collected = [];
    const started = performance.now();
    for (const command of commands) engine.apply(command);
    this.metrics.matchLatency((performance.now() - started) / 1_000);
    const events = this.collected;
    this.collected = [];
    for (const event of events) if (event.type === 'pool-fill') this.pools.swapped(bookId, event);
    return events;
  }

  /** Gives the book's engine the pool snapshot `pools` now holds. */
  refreshPool(bookId: number): void {
    this.engines.get(bookId)?.setPool(this.pools.snapshot(bookId));
  }

  /** Creates the book's engine on first sight and keeps its halt state in line with the registry. */
  private follow(market: Market, recovery?: BookRecovery): void {
    const { book } = market;
    let engine = this.engines.get(book.id);
    if (engine === undefined) {
      // Routing is fixed with the engine: a book is created with or without it.
      if (book.isAmmEnabled) this.pools.add(book.id);
      engine = new MatchingEngine((event) => this.collected.push(event), {
        lastUpdateId: recovery?.lastUpdateId ?? 0,
        ...(book.isAmmEnabled ? { poolGrid: market.grid, pool: this.pools.snapshot(book.id) } : {}),
      });
      for (const order of recovery?.resting ?? []) engine.restore(order);
      this.engines.set(book.id, engine);
    }
    if (matchesNothing(book)) engine.halt();
    else engine.resume();
  }
}
