import { type BookForOrders, bookGrid, type MarketGrid, type OrderbookItem, snapPrice } from '@dex/sdk';

/** What the bot needs of a `GET /books` item: its grid, tokens and last price. */
export type QuotedBookItem = BookForOrders & Pick<OrderbookItem, 'baseTokenId' | 'quoteTokenId' | 'quotePrice' | 'isAMMEnabled'>;

/**
 * A book's grid in whole numbers: prices in ticks and sizes in size steps, so the bot never rounds
 * a price or a size. The arithmetic is the exchange's own (`MarketGrid`, through the SDK). The bot
 * keeps ticks as safe integers: the devnet books it quotes price far below 2^53 ticks.
 */
export class TickGrid {
  private readonly grid: MarketGrid;

  constructor(readonly book: QuotedBookItem) {
    this.grid = bookGrid(book);
  }

  get id(): number {
    return this.book.id;
  }

  /** One size step in raw base units. */
  get sizeStepRaw(): bigint {
    return this.grid.sizeStepRaw;
  }

  /** The display price of a tick count. */
  price(ticks: number): string {
    return this.grid.formatPrice(BigInt(ticks));
  }

  /** The tick count of a display price, rounded down onto the grid. */
  ticks(price: string): number {
    const ticks = this.grid.parsePrice(snapPrice(this.book, price, 'down'));
    if (ticks > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`price ${price} is beyond the ticks the bot keeps`);
    return Number(ticks);
  }

  /** The display base size of a number of size steps. */
  size(steps: number): string {
    return this.grid.formatBase(this.grid.baseAmount(steps));
  }

  /**
   * The fewest size steps an order at `ticks` may have: the lot size and the minimum notional
   * (each step's value rounded down, so a buyer's rounded-down payment still reaches it).
   */
  minSteps(ticks: number): number {
    const { lotSteps, minNotionalRaw } = this.grid;
    const perStep = this.grid.quoteAmount(BigInt(ticks), 1, 'down');
    if (perStep === 0n) return lotSteps;
    return Math.max(lotSteps, Number((minNotionalRaw + perStep - 1n) / perStep));
  }
}
