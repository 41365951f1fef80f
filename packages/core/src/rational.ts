/** Exact integer division and fractions: the only arithmetic on money, never a float. */

/** A fraction in lowest terms, its denominator positive. */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

export type Rounding = 'down' | 'up';

/** numerator / denominator rounded the given way (numerator non-negative, denominator positive). */
export function divide(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  const quotient = numerator / denominator;
  return rounding === 'up' && quotient * denominator !== numerator ? quotient + 1n : quotient;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** num / den in lowest terms (den positive). */
export function ratio(num: bigint, den: bigint): Ratio {
  const common = gcd(num, den);
  return common > 1n ? { num: num / common, den: den / common } : { num, den };
}

/** The largest of some integers (at least one). */
export function largest(values: readonly bigint[]): bigint {
  return values.reduce((most, value) => (value > most ? value : most));
}

/** The smallest of some integers (at least one). */
export function smallest(values: readonly bigint[]): bigint {
  return values.reduce((least, value) => (value < least ? value : least));
}
