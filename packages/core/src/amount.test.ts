import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatDecimal,
  fromDisplayAmount,
  MAX_UINT256,
  parseDecimal,
  parsePositiveRawAmount,
  parseRawAmount,
  toDisplayAmount,
} from './amount.js';
import { CoreError } from './errors.js';

describe('parseRawAmount', () => {
  it('accepts canonical decimal strings', () => {
    expect(parseRawAmount('0')).toBe(0n);
    expect(parseRawAmount('1')).toBe(1n);
    expect(parseRawAmount('250000000')).toBe(250_000_000n);
    expect(parseRawAmount(MAX_UINT256.toString())).toBe(MAX_UINT256);
  });

  it.each([
    ['empty', ''],
    ['leading space', ' 1'],
    ['trailing space', '1 '],
    ['trailing newline', '1\n'],
    ['hex', '0x10'],
    ['exponent', '1e3'],
    ['leading zero', '01'],
    ['negative', '-1'],
    ['plus sign', '+1'],
    ['fraction', '1.0'],
    ['full-width digits', '１２'],
    ['arabic-indic digits', '١'],
    ['underscore', '1_000'],
    ['79 digits', '1'.repeat(79)],
    ['above uint256', (MAX_UINT256 + 1n).toString()],
  ])('rejects %s', (_name, text) => {
    expect(() => parseRawAmount(text)).toThrow(CoreError);
  });

  it.each([[1], [1.5], [null], [undefined], [true], [{}], [[1]], [10n]])('rejects the non-string %p', (value) => {
    expect(() => parseRawAmount(value)).toThrow(/as a string/);
  });

  it('names the field in its message', () => {
    expect(() => parseRawAmount('x', 'inputAmount')).toThrow(/^inputAmount/);
  });

  it.each([
    [
      '2.5',
      'inputAmount',
      `inputAmount must be an integer in the token's smallest units, as a string, e.g. "2500000" for 2.5 USDC; a decimal was sent, and it takes no fraction`,
    ],
    [
      '-5',
      'output.amount',
      `output.amount must be an integer in the token's smallest units, as a string, e.g. "2500000" for 2.5 USDC, without sign, exponent, spaces or leading zeros`,
    ],
    [
      '1e6',
      'nonceFloor',
      'nonceFloor must be a non-negative integer as a string of digits, e.g. "1757000000412345", without sign, exponent, spaces or leading zeros',
    ],
    [`1${'0'.repeat(78)}`, 'inputAmount', 'inputAmount exceeds the uint256 range'],
  ])('says in words what %s in %s should have been', (text, field, message) => {
    expect(() => parseRawAmount(text, field)).toThrow(message);
  });

  it('refuses zero where a positive amount is required', () => {
    expect(() => parsePositiveRawAmount('0')).toThrow(/greater than zero/);
    expect(parsePositiveRawAmount('7')).toBe(7n);
  });

  it('round-trips every uint256', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_UINT256 }), (value) => {
        expect(parseRawAmount(value.toString())).toBe(value);
      }),
    );
  });

  it('accepts exactly the strings of the contract pattern', () => {
    const pattern = /^(0|[1-9][0-9]{0,77})$/;
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('0', '1', '9', '-', '+', '.', 'e', 'x', ' ', '５'), maxLength: 80 }),
        (text) => {
          const accepted = (() => {
            try {
              parseRawAmount(text);
              return true;
            } catch {
              return false;
            }
          })();
          expect(accepted).toBe(pattern.test(text) && BigInt(text) <= MAX_UINT256);
        },
      ),
    );
  });
});

describe('display amounts', () => {
  it('formats raw units with the token decimals', () => {
    expect(toDisplayAmount(150_000_000n, 8)).toBe('1.5');
    expect(toDisplayAmount(1n, 6)).toBe('0.000001');
    expect(toDisplayAmount(0n, 8)).toBe('0');
    expect(toDisplayAmount(123n, 0)).toBe('123');
    expect(toDisplayAmount(100_000_000n, 8)).toBe('1');
  });

  it('parses display amounts exactly and refuses extra precision', () => {
    expect(fromDisplayAmount('1.5', 8)).toBe(150_000_000n);
    expect(fromDisplayAmount('0.000001', 6)).toBe(1n);
    expect(() => fromDisplayAmount('0.0000001', 6)).toThrow(/more than 6 decimal places/);
    expect(() => fromDisplayAmount('1.', 6)).toThrow(CoreError);
    expect(() => fromDisplayAmount('.5', 6)).toThrow(CoreError);
    expect(() => fromDisplayAmount('-1', 6)).toThrow(CoreError);
    expect(() => fromDisplayAmount(1.5, 6)).toThrow(CoreError);
  });

  it('refuses token decimals outside 0..36', () => {
    expect(() => toDisplayAmount(1n, -1)).toThrow(/decimals/);
    expect(() => toDisplayAmount(1n, 37)).toThrow(/decimals/);
    expect(() => toDisplayAmount(1n, 1.5)).toThrow(/decimals/);
  });

  it('round-trips raw -> display -> raw for any amount and decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_UINT256 }), fc.integer({ min: 0, max: 36 }), (raw, decimals) => {
        expect(fromDisplayAmount(toDisplayAmount(raw, decimals), decimals)).toBe(raw);
      }),
    );
  });

  it('parses decimals into units and scale, and formats them back without trailing zeros', () => {
    expect(parseDecimal('0.0001')).toEqual({ units: 1n, scale: 4 });
    expect(parseDecimal('12.50')).toEqual({ units: 1250n, scale: 2 });
    expect(formatDecimal(1250n, 2)).toBe('12.5');
    expect(formatDecimal(-5n, 1)).toBe('-0.5');
    expect(() => parseDecimal('1'.repeat(200))).toThrow(CoreError);
  });
});
