/**
 * The constant-product pair's own arithmetic, to the unit: a 0.30 % fee stays in the pool, and
 * every division rounds in the pool's favour. The Solidity pair computes the same numbers, so a
 * swap the engine prices here settles for exactly these amounts.
 */

const FEE_KEPT = 997n;
const FEE_SCALE = 1000n;

/** What a swap of `amountIn` pays out of a pool holding `reserveIn` and `reserveOut`. */
export function amountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const inWithFee = amountIn * FEE_KEPT;
  return (inWithFee * reserveOut) / (reserveIn * FEE_SCALE + inWithFee);
}

/**
 * The input that buys `wanted` out of a pool, as the Solidity library computes it: the smallest
 * one, or one unit more when the price divides exactly (floor + 1, Uniswap's getAmountIn), so the
 * engine's routing and the router's quotes agree to the unit. Undefined when the pool cannot pay
 * it (a pool never gives up its whole reserve).
 */
export function amountIn(wanted: bigint, reserveIn: bigint, reserveOut: bigint): bigint | undefined {
  if (wanted <= 0n || reserveIn <= 0n || wanted >= reserveOut) return undefined;
  return (reserveIn * wanted * FEE_SCALE) / ((reserveOut - wanted) * FEE_KEPT) + 1n;
}

/** Largest integer whose square is at most `value`. */
export function isqrt(value: bigint): bigint {
  if (value < 0n) throw new RangeError('square root of a negative number');
  if (value < 2n) return value;
  // Newton's iteration from a power of two above the root converges from above.
  let guess = 1n << BigInt(Math.ceil(value.toString(2).length / 2));
  for (;;) {
    const next = (guess + value / guess) >> 1n;
    if (next >= guess) return guess;
    guess = next;
  }
}

/**
 * The smallest non-negative integer x with x² · den > num (strict) or x² · den >= num (inclusive);
 * den must be positive. The closed forms of the pool leg reduce to this.
 */
export function smallestRootAbove(num: bigint, den: bigint, inclusive: boolean): bigint {
  const holds = (x: bigint) => (inclusive ? x * x * den >= num : x * x * den > num);
  let x = num <= 0n ? 0n : isqrt(num / den);
  while (x > 0n && holds(x - 1n)) x--;
  while (!holds(x)) x++;
  return x;
}
