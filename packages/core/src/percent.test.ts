import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentText } from './percent.js';

describe('percentText', () => {
  it.each<[bigint, bigint, number, 'down' | 'nearest', string]>([
    [0n, 7n, 2, 'down', '0.00'],
    [7n, 7n, 2, 'down', '100.00'],
    [1n, 3n, 2, 'down', '33.33'],
    [2n, 3n, 2, 'down', '66.66'],
    [2n, 3n, 2, 'nearest', '66.67'],
    [1n, 8n, 1, 'nearest', '12.5'],
    [1n, 16n, 2, 'nearest', '6.25'],
    [1n, 200n, 0, 'nearest', '1'],
    [-3n, 10n, 4, 'nearest', '-30.0000'],
    [-1n, 3n, 4, 'down', '-33.3333'],
    [-1n, 3_000_000_000n, 4, 'nearest', '0.0000'],
    [5n, -10n, 1, 'down', '-50.0'],
  ])('%d of %d with %d places, rounding %s, is %s', (part, whole, decimals, rounding, expected) => {
    expect(percentText(part, whole, decimals, rounding)).toBe(expected);
  });

  it('refuses a zero whole and an unusable number of places', () => {
    expect(() => percentText(1n, 0n, 2, 'down')).toThrow(/zero/);
    expect(() => percentText(1n, 2n, -1, 'down')).toThrow(/decimals/);
  });

  it('agrees with exact rational arithmetic on random integers', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 30n }), (part, whole) => {
        const text = percentText(part, whole, 4, 'down');
        const [integer = '', fraction = ''] = text.replace('-', '').split('.');
        const shown = BigInt(integer + fraction) * (text.startsWith('-') ? -1n : 1n);
        // Truncated toward zero: |exact - shown| < 1 unit of the last place, and never larger in size.
        const exactTimesScale = part * 1_000_000n;
        expect(fraction).toHaveLength(4);
        expect((exactTimesScale - shown * whole) * (part < 0n ? -1n : 1n)).toBeGreaterThanOrEqual(0n);
        expect((exactTimesScale - shown * whole) * (part < 0n ? -1n : 1n)).toBeLessThan(whole);
      }),
    );
  });
});
