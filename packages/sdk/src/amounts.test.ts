import { describe, expect, it } from 'vitest';
import { type BookGrid, snapSizeDown, toDisplay, toRaw } from './amounts.js';
import { InvalidParameterError } from './errors.js';

/** The grid of the devnet's WHBAR/USDC book: size step 0.1 WHBAR = 10,000,000 raw units. */
const WHBAR_USDC: BookGrid = {
  tickStep: '0.00001',
  sizeStep: '0.1',
  lotSize: '1',
  minNotional: '1',
  baseTokenDecimals: 8,
  quoteTokenDecimals: 6,
};

describe('toRaw', () => {
  it.each([
    ['1.5', 8, 150_000_000n],
    ['0.000001', 6, 1n],
    ['42', 0, 42n],
    ['0', 18, 0n],
    ['123456789012345678901234567890.123456789012345678', 18, 123456789012345678901234567890123456789012345678n],
  ])('turns %s with %i decimals into raw units', (display, decimals, raw) => {
    expect(toRaw(display, decimals)).toBe(raw);
  });

  it.each([
    ['more decimals than the token has', '1.123456789', 8],
    ['an exponent', '1e3', 8],
    ['a sign', '-1', 8],
    ['spaces', ' 1', 8],
    ['a comma', '1,5', 8],
    ['impossible decimals', '1', 99],
  ])('refuses a display amount with %s', (_name, display, decimals) => {
    expect(() => toRaw(display, decimals)).toThrow(InvalidParameterError);
  });
});

describe('toDisplay', () => {
  it.each([
    ['150000000', 8, '1.5'],
    [1n, 6, '0.000001'],
    [0n, 6, '0'],
    [2n ** 255n, 18, '57896044618658097711785492504343953926634992332820282019728.792003956564819968'],
  ])('turns %s raw units with %i decimals into a display amount', (raw, decimals, display) => {
    expect(toDisplay(raw, decimals)).toBe(display);
  });

  it.each(['1.5', '-1', '01', '1e6', ''])('refuses the raw amount %j', (raw) => {
    expect(() => toDisplay(raw, 6)).toThrow(expect.objectContaining({ name: 'InvalidParameterError', parameter: 'raw' }));
  });

  it('round-trips with toRaw', () => {
    expect(toDisplay(toRaw('12.3456', 8), 8)).toBe('12.3456');
  });
});

describe('snapSizeDown', () => {
  it.each([
    [305_000_000n, 300_000_000n],
    ['300000000', 300_000_000n],
    [9_999_999n, 0n],
    [0n, 0n],
    [10n ** 40n + 12_345n, 10n ** 40n],
  ])('floors %s raw base units to the size step', (baseRaw, snapped) => {
    expect(snapSizeDown(WHBAR_USDC, baseRaw)).toBe(snapped);
  });

  it('refuses a malformed raw amount', () => {
    expect(() => snapSizeDown(WHBAR_USDC, '3.05')).toThrow(expect.objectContaining({ parameter: 'baseRaw' }));
  });

  it('refuses a book without token decimals', () => {
    expect(() => snapSizeDown({ ...WHBAR_USDC, baseTokenDecimals: null }, 1n)).toThrow(
      expect.objectContaining({ parameter: 'book' }),
    );
  });

  it('refuses a book whose grid is finer than its token', () => {
    expect(() => snapSizeDown({ ...WHBAR_USDC, sizeStep: '0.000000001', lotSize: '1' }, 1n)).toThrow(InvalidParameterError);
  });
});
