import type { Market } from '../domain/markets/market.js';

/** Fee rates in pips (1 pip = 1e-6 = 0.0001%). */
export interface FeeRates {
  readonly takerFeePips: number;
  /** Negative: a rebate, paid out of the taker's fee of the same fill. */
  readonly makerFeePips: number;
  /** Cap of a maker rebate as a fraction of the taker fee of the same fill (pips of that fee). */
  readonly capFractionPips: number;
}

/** An account's fee rates on a book: what the settler prices each side of a fill with. */
export interface FeeRateSource {
  rates(account: string, market: Market): Promise<FeeRates>;
}
