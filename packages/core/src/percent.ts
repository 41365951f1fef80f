import { CoreError } from './errors.js';

export type PercentRounding = 'down' | 'nearest';

/**
 * `part / whole` as a percent with exactly `decimals` places ("33.33", "-0.3984", "0.00"), from
 * integers: no float ever decides a digit. `down` truncates toward zero (a fill is never shown as
 * more complete than it is); `nearest` rounds half away from zero.
 */
export function percentText(part: bigint, whole: bigint, decimals: number, rounding: PercentRounding): string {
  if (whole === 0n) throw new CoreError('INVALID_DECIMAL', 'a percent of zero is undefined');
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18) {
    throw new CoreError('INVALID_DECIMAL', 'decimals must be an integer from 0 to 18');
  }
  const negative = part < 0n !== whole < 0n && part !== 0n;
  const numerator = (part < 0n ? -part : part) * 100n * 10n ** BigInt(decimals);
  const denominator = whole < 0n ? -whole : whole;
  let units = numerator / denominator;
  if (rounding === 'nearest' && (numerator % denominator) * 2n >= denominator) units += 1n;
  const digits = units.toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative && units !== 0n ? `-${text}` : text;
}
