/**
 * Fees of a new book unless the operator sets others: 0.1% for takers, nothing for makers, no
 * rebates (1 pip = 0.0001%).
 */
export const DEFAULT_FEES = { takerFeePips: 1_000, makerFeePips: 0, capFractionPips: 0 } as const;

/** The most a fee, a rebate or a cap may be: 100%. */
export const MAX_FEE_PIPS = 1_000_000;

/**
 * A maker fee as the reactor takes it: a negative maker fee is a rebate, paid out of the taker's fee
 * of the same fill (at most `capFractionPips` of it), never a fee below zero.
 */
export function makerCharge(makerFeePips: number): { readonly feePips: number; readonly rebatePips: number } {
  return makerFeePips < 0 ? { feePips: 0, rebatePips: -makerFeePips } : { feePips: makerFeePips, rebatePips: 0 };
}
