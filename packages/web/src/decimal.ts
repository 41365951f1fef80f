/**
 * Exact arithmetic on the API's decimal strings. Prices and sizes are shown as text, so they are
 * added and subtracted as scaled bigints: a float would turn "0.1" + "0.2" into "0.30000000000000004".
 */

/** `units / 10^scale`, signed. */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Parses "12", "-0.3984", "0.00000001"; anything else (exponents, spaces, "abc") is a RangeError. */
export function parseExact(text: string): ExactDecimal {
  const match = DECIMAL_TEXT.exec(text);
  if (match === null) throw new RangeError(`"${text}" is not a plain decimal`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  const magnitude = BigInt(whole + fraction);
  return { units: sign === '-' ? -magnitude : magnitude, scale: fraction.length };
}

/** Plain decimal text without trailing fractional zeros: 1500 at scale 3 is "1.5". */
export function formatExact({ units, scale }: ExactDecimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString();
  const padded = scale === 0 ? digits : digits.padStart(scale + 1, '0');
  const whole = scale === 0 ? padded : padded.slice(0, -scale);
  const fraction = scale === 0 ? '' : padded.slice(-scale).replace(/0+$/, '');
  const sign = negative && units !== 0n ? '-' : '';
  return sign + (fraction === '' ? whole : `${whole}.${fraction}`);
}

/** The same value at a larger scale (never loses digits). */
function rescale(value: ExactDecimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function subtractDecimals(a: string, b: string): string {
  const x = parseExact(a);
  const y = parseExact(b);
  const scale = Math.max(x.scale, y.scale);
  return formatExact({ units: rescale(x, scale) - rescale(y, scale), scale });
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`; "1.50" equals "1.5". */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const x = parseExact(a);
  const y = parseExact(b);
  const scale = Math.max(x.scale, y.scale);
  const difference = rescale(x, scale) - rescale(y, scale);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/** Whether a signed decimal such as a 24 h change is above, at or below zero. */
export function signOf(text: string): -1 | 0 | 1 {
  return compareDecimals(text, '0');
}

/**
 * Running totals of decimal strings, in order: ["1", "0.5", "2"] gives ["1", "1.5", "3.5"]. All
 * values are brought to the largest scale among them first, so no digit is ever dropped.
 */
export function runningSums(values: readonly string[]): string[] {
  const parsed = values.map(parseExact);
  const scale = parsed.reduce((largest, value) => Math.max(largest, value.scale), 0);
  let total = 0n;
  return parsed.map((value) => {
    total += rescale(value, scale);
    return formatExact({ units: total, scale });
  });
}

/**
 * `part / whole` as a float in [0, 1], for pixel sizes only (bar widths, chart coordinates); never
 * for a value shown as text. A zero or negative whole gives 0.
 */
export function fractionOf(part: string, whole: string): number {
  const x = parseExact(part);
  const y = parseExact(whole);
  const scale = Math.max(x.scale, y.scale);
  const denominator = rescale(y, scale);
  if (denominator <= 0n) return 0;
  // Six digits of precision are plenty for a pixel; the bigint division keeps huge values exact enough.
  const millionths = (rescale(x, scale) * 1_000_000n) / denominator;
  return Math.min(1, Math.max(0, Number(millionths) / 1_000_000));
}

/** A decimal string as a float, for pixel coordinates only. */
export function toPixelNumber(text: string): number {
  return Number(text);
}

/**
 * `numerator / denominator` as decimal text with at most `digits` fractional digits, rounded down
 * (toward zero); undefined when the denominator is zero.
 */
export function divideToDecimal(numerator: bigint, denominator: bigint, digits: number): string | undefined {
  if (denominator === 0n) return undefined;
  return formatExact({ units: (numerator * 10n ** BigInt(digits)) / denominator, scale: digits });
}

/** How many fractional digits a decimal string has: "0.00001" has 5. */
export function scaleOf(text: string): number {
  return parseExact(text).scale;
}
