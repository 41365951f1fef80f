import { BUY, type EngineCommand, type EngineEvent, type FillEvent, MatchingEngine } from '@dex/core';
import type { Market, MarketRegistry } from '../registry/market-registry.js';
import type { NewTrade, Store } from '../store/ports.js';

/** Turns an engine fill into the trade the store keeps, in raw token units. */
function tradeOf(market: Market, event: FillEvent): NewTrade {
  const { grid } = market;
  return {
    bookId: market.book.id,
    executedAt: event.time,
    priceTicks: event.price,
    price: grid.formatPrice(event.price),
    baseAmount: grid.baseAmount(event.quantity),
    quoteAmount: grid.quoteAmount(event.price, event.quantity),
    direction: event.takerSide === BUY ? 'buy' : 'sell',
    makerOrderId: event.makerId,
    takerOrderId: event.takerId,
  };
}

/**
 * Owns one matching engine per book: the single writer of each book. Commands run synchronously
 * (JavaScript gives the serialisation for free); the trades they produce are written to the store
 * strictly in engine order.
 */
export class EngineHost {
  private readonly engines = new Map<number, MatchingEngine>();
  private persisted: Promise<void> = Promise.resolve();
  private collected: EngineEvent[] = [];

  constructor(
    private readonly registry: MarketRegistry,
    private readonly store: Store,
  ) {
    registry.onChange((markets) => {
      for (const market of markets) this.follow(market);
    });
  }

  /** Creates the engines of every known book. */
  start(): void {
    for (const market of this.registry.list()) this.follow(market);
  }

  engine(bookId: number): MatchingEngine | undefined {
    return this.engines.get(bookId);
  }

  /**
   * Applies commands to one book and resolves with the events they produced once the resulting
   * trades are stored.
   */
  async submit(bookId: number, commands: readonly EngineCommand[]): Promise<EngineEvent[]> {
    const market = this.registry.get(bookId);
    const engine = this.engines.get(bookId);
    if (market === undefined || engine === undefined) throw new Error(`no engine for book ${bookId}`);
    this.collected = [];
    for (const command of commands) engine.apply(command);
    const events = this.collected;
    this.collected = [];
    const trades = events.flatMap((event) => (event.type === 'fill' ? [tradeOf(market, event)] : []));
    const write = this.persisted.then(() => this.store.trades.append(trades));
    this.persisted = write.catch(() => {});
    await write;
    return events;
  }

  /** Creates the book's engine on first sight and keeps its halt state in line with the registry. */
  private follow(market: Market): void {
    const { book } = market;
    let engine = this.engines.get(book.id);
    if (engine === undefined) {
      engine = new MatchingEngine((event) => this.collected.push(event));
      this.engines.set(book.id, engine);
    }
    if (book.isHalted || book.status === 'CLOSED') engine.halt();
    else engine.resume();
  }
}
