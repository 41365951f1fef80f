import type { Ratio } from '@dex/core';

/** A non-negative ratio as a plain decimal string, rounded down to `places` decimals, trailing zeros dropped ("12.5", "0"). */
export function decimalText(value: Ratio, places = 8): string {
  const scaled = (value.num * 10n ** BigInt(places)) / value.den;
  const digits = scaled.toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
