import type { Services } from '../composition/services.js';
import type { NewTrade } from '../domain/orders/trade-records.js';

/** A fill of `steps` size steps at `ticks` on a book, as the trading desk stores fills (append it to the trade store). */
export function storedFill(
  host: { readonly services: Services },
  bookId: number,
  executedAt: number,
  price: number | bigint,
  steps: number,
): NewTrade {
  const ticks = BigInt(price);
  const market = host.services.registry.get(bookId);
  if (market === undefined) throw new Error(`no book ${bookId}`);
  return {
    bookId,
    executedAt,
    priceTicks: ticks,
    price: market.grid.formatPrice(ticks),
    baseAmount: market.grid.baseAmount(steps),
    quoteAmount: market.grid.quoteAmount(ticks, steps, 'up'),
    direction: 'buy',
    makerOrderId: 1,
    takerOrderId: 2,
  };
}
