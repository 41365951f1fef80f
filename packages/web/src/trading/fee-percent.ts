import { divideToDecimal } from '../decimal.js';

/** Pips per 100%: a pip is one millionth, 0.0001%. */
const PIPS_PER_PERCENT = 10_000n;

/** A fee in pips as an exact percent: 2500 pips is "0.25%". */
export function pipsAsPercent(pips: number): string {
  return `${divideToDecimal(BigInt(pips), PIPS_PER_PERCENT, 4) ?? '0'}%`;
}
