import type { FeeRates } from '../../../ports/fee-rates.js';

/** Fee rates as the operator reads them: a negative maker fee is a rebate, shown with its cap. */
export function describeFees(fees: FeeRates): string {
  const maker =
    fees.makerFeePips < 0
      ? `maker rebate ${-fees.makerFeePips} pips (at most ${fees.capFractionPips} pips of the taker fee)`
      : `maker ${fees.makerFeePips} pips`;
  return `taker ${fees.takerFeePips} pips, ${maker}`;
}
