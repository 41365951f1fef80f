import { toDisplayAmount, WEI_PER_TINYBAR } from '@dex/core';
import { rawAmount } from './amm-access.js';

/**
 * HBAR is shown and given in whole HBAR with 8 decimals (1 HBAR = 100,000,000 tinybar); the farm
 * counts the native coin in the EVM's wei, 10^10 to the tinybar. Both ways in bigint, exactly.
 */
const HBAR_DECIMALS = 8;

/** HBAR in whole units ("0.001", at most 8 decimals) as wei. */
export function hbarAsWei(text: string | undefined, label: string): bigint {
  return rawAmount(text, HBAR_DECIMALS, label, ' of HBAR, whose smallest unit is the tinybar (0.00000001)') * WEI_PER_TINYBAR;
}

/** Wei as HBAR with 8 decimals; wei below a tinybar are not shown (rounded down, as the data API does). */
export function hbarOfWei(wei: bigint): string {
  return toDisplayAmount(wei / WEI_PER_TINYBAR, HBAR_DECIMALS);
}
