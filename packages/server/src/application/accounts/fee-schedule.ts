import type { FeeRateSource, FeeRates } from '../../ports/fee-rates.js';
import type { FeeOverrideStore } from '../../ports/store/order-ports.js';
import type { Market } from '../markets/market-registry.js';

export type { FeeRates } from '../../ports/fee-rates.js';

/** An account's fees on a book: the operator's override for that account, else the book's own. */
export class FeeSchedule implements FeeRateSource {
  constructor(private readonly overrides: FeeOverrideStore) {}

  async rates(account: string, market: Market): Promise<FeeRates> {
    const override = await this.overrides.get(account, market.book.id);
    const { takerFeePips, makerFeePips, capFractionPips } = override ?? market.book;
    return { takerFeePips, makerFeePips, capFractionPips };
  }

  /** The account's rates by market, each market read once: for a batch of orders. */
  forAccount(account: string): (market: Market) => Promise<FeeRates> {
    const seen = new Map<number, Promise<FeeRates>>();
    return (market) => {
      let rates = seen.get(market.book.id);
      if (rates === undefined) {
        rates = this.rates(account, market);
        seen.set(market.book.id, rates);
      }
      return rates;
    };
  }
}
