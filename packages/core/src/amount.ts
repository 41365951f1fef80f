import { CoreError } from './errors.js';

/** Largest value a uint256 field of a signed order can hold. */
export const MAX_UINT256 = (1n << 256n) - 1n;

/** Raw amounts on the wire: no sign, no leading zeros, ASCII digits only, at most 78 digits. */
const RAW_AMOUNT = /^(?:0|[1-9][0-9]{0,77})$/;
/** Display amounts: a raw-amount integer part and an optional fraction of ASCII digits. */
const DISPLAY_AMOUNT = /^(?:0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
/** Longest display string accepted; bounds the work a hostile input can cause. */
const MAX_DISPLAY_LENGTH = 160;
/** Token decimals this service supports; ERC-20 allows up to 255 but no real token goes past 36. */
export const MAX_TOKEN_DECIMALS = 36;

/** Whether a field, by its name, holds token units (`inputAmount`, `order.input.amount`) rather than a plain integer. */
const TOKEN_UNITS_FIELD = /amount$/i;

/** What a raw token amount takes, in words with an example, to follow "must be": the one wording of every message about one, from the HTTP schema checks to the order codec. */
export const TOKEN_UNITS_FORM = `an integer in the token's smallest units, as a string, e.g. "2500000" for 2.5 USDC`;
/** What any other raw integer (`nonce`, `nonceFloor`, `deadline`) takes, to follow "must be". */
export const PLAIN_INTEGER_FORM = `a non-negative integer as a string of digits, e.g. "1757000000412345"`;

/** A raw integer field's form by its name: a field named `...amount` holds token units. */
function rawIntegerForm(field: string): string {
  return TOKEN_UNITS_FIELD.test(field) ? TOKEN_UNITS_FORM : PLAIN_INTEGER_FORM;
}

/** "`field` must be ..." for a raw integer field. */
export function rawIntegerExpected(field: string): string {
  return `${field} must be ${rawIntegerForm(field)}`;
}

/**
 * Parses a raw token amount (or another uint256) from its wire form, a strict decimal string.
 * JSON numbers are refused on purpose: they lose precision past 2^53 before we ever see them.
 */
export function parseRawAmount(value: unknown, field = 'amount'): bigint {
  if (typeof value !== 'string') {
    throw new CoreError('INVALID_AMOUNT', rawIntegerExpected(field), {
      details: `got ${value === null ? 'null' : typeof value === 'number' ? 'a JSON number, which loses digits past 2^53' : typeof value}`,
    });
  }
  if (!RAW_AMOUNT.test(value)) {
    if (/^[1-9][0-9]*$/.test(value)) throw new CoreError('INVALID_AMOUNT', `${field} exceeds the uint256 range`);
    // A decimal point is the usual mistake: display units where raw units belong.
    const hint = DISPLAY_AMOUNT.test(value)
      ? '; a decimal was sent, and it takes no fraction'
      : ', without sign, exponent, spaces or leading zeros';
    throw new CoreError('INVALID_AMOUNT', `${rawIntegerExpected(field)}${hint}`);
  }
  const amount = BigInt(value);
  if (amount > MAX_UINT256) throw new CoreError('INVALID_AMOUNT', `${field} exceeds the uint256 range`);
  return amount;
}

/** Like {@link parseRawAmount}, and the amount must be at least 1. */
export function parsePositiveRawAmount(value: unknown, field = 'amount'): bigint {
  const amount = parseRawAmount(value, field);
  if (amount === 0n) throw new CoreError('INVALID_AMOUNT', `${field} must be greater than zero`);
  return amount;
}

export function assertTokenDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_TOKEN_DECIMALS) {
    throw new CoreError('INVALID_DECIMALS', `token decimals must be an integer from 0 to ${MAX_TOKEN_DECIMALS}`);
  }
}

/** An exact non-negative decimal number: units / 10^scale. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** Parses a strict display decimal ("0.0001", "12", "3.5"); no sign, exponent or spaces. */
export function parseDecimal(text: unknown, field = 'value'): Decimal {
  if (typeof text !== 'string' || text.length > MAX_DISPLAY_LENGTH) {
    throw new CoreError('INVALID_DECIMAL', `${field} must be a decimal string`);
  }
  const match = DISPLAY_AMOUNT.exec(text);
  if (!match) throw new CoreError('INVALID_DECIMAL', `${field} must be a plain decimal such as "0.25"`);
  const fraction = match[1] ?? '';
  const whole = fraction ? text.slice(0, -(fraction.length + 1)) : text;
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

/** Formats units / 10^scale as a plain decimal without trailing fractional zeros. */
export function formatDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString();
  const sign = negative ? '-' : '';
  if (scale === 0) return sign + digits;
  const padded = digits.padStart(scale + 1, '0');
  const whole = padded.slice(0, -scale);
  const fraction = padded.slice(-scale).replace(/0+$/, '');
  return sign + (fraction ? `${whole}.${fraction}` : whole);
}

/** Raw token units to a human-readable amount: 150000000 with 8 decimals is "1.5". */
export function toDisplayAmount(raw: bigint, decimals: number): string {
  assertTokenDecimals(decimals);
  return formatDecimal(raw, decimals);
}

/**
 * A human-readable amount to raw token units. More fractional digits than the token has is an
 * error, never a silent rounding.
 */
export function fromDisplayAmount(display: unknown, decimals: number, field = 'amount'): bigint {
  assertTokenDecimals(decimals);
  const value = parseDecimal(display, field);
  if (value.scale > decimals) {
    throw new CoreError('INVALID_AMOUNT', `${field} has more than ${decimals} decimal places`);
  }
  const raw = value.units * 10n ** BigInt(decimals - value.scale);
  if (raw > MAX_UINT256) throw new CoreError('INVALID_AMOUNT', `${field} exceeds the uint256 range`);
  return raw;
}

/** Scales a decimal to an integer count of 10^-scale units; fails when it is not a whole count. */
export function decimalToUnits(value: Decimal, scale: number): bigint | undefined {
  if (value.scale <= scale) return value.units * 10n ** BigInt(scale - value.scale);
  const divisor = 10n ** BigInt(value.scale - scale);
  return value.units % divisor === 0n ? value.units / divisor : undefined;
}

/** Native units (wei) in one tinybar: the EVM counts the native coin in 18 decimals, the ledger in 8. */
export const WEI_PER_TINYBAR = 10n ** 10n;
