import { type EngineCommand, type EngineEvent, MatchingEngine, type OpenOrder } from '@dex/core';
import type { Market, MarketRegistry } from '../markets/market-registry.js';

/** What a restart puts back on one book: its resting orders, oldest first, and its update id. */
export interface BookRecovery {
  readonly resting: readonly OpenOrder[];
  readonly lastUpdateId: number;
}

/**
 * Owns one matching engine per book: the single writer of each book. Commands run synchronously,
 * so JavaScript's run-to-completion gives every book a strict order of events; what the events
 * mean for orders and the store is the trading desk's business.
 */
export class EngineHost {
  private readonly engines = new Map<number, MatchingEngine>();
  private collected: EngineEvent[] = [];

  constructor(private readonly registry: MarketRegistry) {
    registry.onChange((markets) => {
      for (const market of markets) this.follow(market);
    });
  }

  /** Creates the engine of every known book, putting back what a previous run left resting. */
  start(recovered: ReadonlyMap<number, BookRecovery> = new Map()): void {
    for (const market of this.registry.list()) this.follow(market, recovered.get(market.book.id));
  }

  engine(bookId: number): MatchingEngine | undefined {
    return this.engines.get(bookId);
  }

  /** Applies commands to one book and returns the events they produced, in order. */
  execute(bookId: number, commands: readonly EngineCommand[]): EngineEvent[] {
    const engine = this.engines.get(bookId);
    if (engine === undefined) throw new Error(`no engine for book ${bookId}`);
    this.collected = [];
    for (const command of commands) engine.apply(command);
    const events = this.collected;
    this.collected = [];
    return events;
  }

  /** Creates the book's engine on first sight and keeps its halt state in line with the registry. */
  private follow(market: Market, recovery?: BookRecovery): void {
    const { book } = market;
    let engine = this.engines.get(book.id);
    if (engine === undefined) {
      engine = new MatchingEngine((event) => this.collected.push(event), { lastUpdateId: recovery?.lastUpdateId ?? 0 });
      for (const order of recovery?.resting ?? []) engine.restore(order);
      this.engines.set(book.id, engine);
    }
    if (book.isHalted || book.status === 'CLOSED') engine.halt();
    else engine.resume();
  }
}
