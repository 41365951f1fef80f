/** Fees of a new book unless the operator sets others: 0.1% for takers, nothing for makers (1 pip = 0.0001%). */
export const DEFAULT_FEES = { takerFeePips: 1_000, makerFeePips: 0 } as const;
