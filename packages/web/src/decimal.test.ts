import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  divideToDecimal,
  formatExact,
  fractionOf,
  parseExact,
  runningSums,
  scaleOf,
  signOf,
  subtractDecimals,
} from './decimal.js';

describe('parseExact and formatExact', () => {
  it('reads signed decimals without losing digits', () => {
    expect(parseExact('-0.3984')).toEqual({ units: -3984n, scale: 4 });
    expect(parseExact('123456789012345678901234567890.000000000000000001')).toEqual({
      units: 123456789012345678901234567890000000000000000001n,
      scale: 18,
    });
  });

  it('refuses anything but a plain decimal', () => {
    for (const text of ['', 'abc', '1e5', ' 1', '1.', '.5', '+1', '0x10', '1,5']) {
      expect(() => parseExact(text)).toThrow(RangeError);
    }
  });

  it('formats without trailing fractional zeros and never as "-0"', () => {
    expect(formatExact({ units: 1500n, scale: 3 })).toBe('1.5');
    expect(formatExact({ units: 5n, scale: 8 })).toBe('0.00000005');
    expect(formatExact({ units: -5n, scale: 2 })).toBe('-0.05');
    expect(formatExact({ units: 0n, scale: 4 })).toBe('0');
    expect(formatExact({ units: 42n, scale: 0 })).toBe('42');
  });
});

describe('arithmetic', () => {
  it('subtracts across scales, below zero too', () => {
    expect(subtractDecimals('0.25001', '0.25')).toBe('0.00001');
    expect(subtractDecimals('1', '1.5')).toBe('-0.5');
  });

  it('compares by value, not by text', () => {
    expect(compareDecimals('1.50', '1.5')).toBe(0);
    expect(compareDecimals('10', '9.99')).toBe(1);
    expect(compareDecimals('-0.1', '0')).toBe(-1);
  });

  it('gives the sign of a change, zero with any number of zeros included', () => {
    expect(signOf('-0.3984')).toBe(-1);
    expect(signOf('0.0000')).toBe(0);
    expect(signOf('-0.0000')).toBe(0);
    expect(signOf('2.5')).toBe(1);
  });
});

describe('runningSums', () => {
  it('sums sizes from the first value on, at the largest scale among them', () => {
    expect(runningSums(['1', '0.5', '2.25'])).toEqual(['1', '1.5', '3.75']);
  });

  it('adds exactly where floats would not', () => {
    expect(runningSums(['0.1', '0.2'])).toEqual(['0.1', '0.3']);
    expect(runningSums(['9007199254740993', '0.000000000000000001'])).toEqual([
      '9007199254740993',
      '9007199254740993.000000000000000001',
    ]);
  });

  it('keeps many decimals exact', () => {
    expect(runningSums(['0.000000000000000001', '0.000000000000000002'])).toEqual([
      '0.000000000000000001',
      '0.000000000000000003',
    ]);
  });

  it('gives nothing for nothing', () => {
    expect(runningSums([])).toEqual([]);
  });
});

describe('fractionOf', () => {
  it('is the share of the whole, clamped to [0, 1]', () => {
    expect(fractionOf('1', '4')).toBe(0.25);
    expect(fractionOf('5', '4')).toBe(1);
  });

  it('is zero against a zero whole instead of dividing by it', () => {
    expect(fractionOf('1', '0')).toBe(0);
  });
});

describe('divideToDecimal', () => {
  it('rounds toward zero at the digits asked for', () => {
    expect(divideToDecimal(2n, 3n, 4)).toBe('0.6666');
    expect(divideToDecimal(10n, 4n, 4)).toBe('2.5');
  });

  it('has no answer for a zero denominator', () => {
    expect(divideToDecimal(1n, 0n, 4)).toBeUndefined();
  });
});

it('counts fractional digits', () => {
  expect(scaleOf('0.00001')).toBe(5);
  expect(scaleOf('3')).toBe(0);
});
