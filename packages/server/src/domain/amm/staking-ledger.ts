import type { StakingEvent } from './amm-events.js';

/** SAUCE held by the staking contract and xSAUCE shares in existence, raw units (both 6 decimals). */
export interface StakingTotals {
  readonly sauce: bigint;
  readonly xsauce: bigint;
}

export const NO_STAKING: StakingTotals = { sauce: 0n, xsauce: 0n };

/** The totals after one staking event. Rewards are plain SAUCE transfers in, so they raise `sauce` alone. */
export function applyStakingEvent(totals: StakingTotals, event: StakingEvent): StakingTotals {
  switch (event.kind) {
    case 'sauceIn':
      return { ...totals, sauce: totals.sauce + event.amount };
    case 'sauceOut':
      return { ...totals, sauce: totals.sauce - event.amount };
    case 'sharesMinted':
      return { ...totals, xsauce: totals.xsauce + event.amount };
    case 'sharesBurnt':
      return { ...totals, xsauce: totals.xsauce - event.amount };
  }
}
