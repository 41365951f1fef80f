import {
  type Client,
  getExactInputQuote,
  limitOrderRequest,
  marketOrderRequest,
  type OrderSide,
  placeOrders,
  type SavedOrder,
} from '@dex/sdk';
import type { TickGrid } from './tick-grid.js';

/**
 * The second account: it now and then sends a market order into a book, buying and selling in
 * turn on each book so its inventory (and the maker's) stays about level. Each order is priced by
 * the exact-input quote, so it never pays more than the quote's slippage buffer. On a book that
 * routes into its pool it opts in, quote and order alike, so routing has takers to serve.
 */
export class Taker {
  private readonly nextSide = new Map<number, OrderSide>();

  constructor(private readonly client: Client) {}

  /**
   * Spends about `steps` size steps' worth at `midTicks` on the book's next side. Returns the saved
   * order, or undefined when that side of the book has nothing to take.
   */
  async take(grid: TickGrid, midTicks: number, steps: number): Promise<SavedOrder | undefined> {
    const { book } = grid;
    const side = this.nextSide.get(book.id) ?? 'buy';
    this.nextSide.set(book.id, side === 'buy' ? 'sell' : 'buy');
    // A sell spends base size steps; a buy spends their quote value at the mid, exactly as a limit order would.
    const sizing = limitOrderRequest(book, { side, price: grid.price(midTicks), size: grid.size(steps) });
    const isAMMEnabled = book.isAMMEnabled === 1;
    const quote = await getExactInputQuote(this.client, {
      orderbookId: book.id,
      inputToken: sizing.inputToken,
      inputAmount: sizing.inputAmount,
      isAMMEnabled,
    });
    if (!quote.fillable || BigInt(quote.snappedInputAmount) === 0n || BigInt(quote.suggestedOutputAmount) === 0n) {
      return undefined;
    }
    const { orders } = await placeOrders(this.client, {
      orders: [
        marketOrderRequest(book, {
          side,
          inputAmount: quote.snappedInputAmount,
          minOutputAmount: quote.suggestedOutputAmount,
          isAMMEnabled,
        }),
      ],
    });
    return orders[0];
  }
}
