import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError } from './errors.js';
import { type GridSpec, MarketGrid } from './grid.js';
import { HBAR_USDC_GRID } from './test-support/engine-fixtures.js';

/** WHBAR (8 decimals) priced in USDC (6 decimals). */
const hbarUsdc: GridSpec = HBAR_USDC_GRID;

describe('MarketGrid', () => {
  const grid = new MarketGrid(hbarUsdc);

  it('derives raw units per step and per tick-step', () => {
    expect(grid.sizeStepRaw).toBe(10_000_000n);
    expect(grid.quotePerTickStep).toBe(1n);
    expect(grid.lotSteps).toBe(10);
    expect(grid.minNotionalRaw).toBe(1_000_000n);
  });

  it('converts prices between display and ticks', () => {
    expect(grid.parsePrice('0.25')).toBe(25_000);
    expect(grid.formatPrice(25_000)).toBe('0.25');
    expect(grid.formatPrice(1)).toBe('0.00001');
    expect(() => grid.parsePrice('0.000015')).toThrow(/tick step/);
  });

  it('computes exact fill amounts', () => {
    // 2.5 WHBAR at 0.25 USDC = 0.625 USDC
    expect(grid.baseAmount(25)).toBe(250_000_000n);
    expect(grid.quoteAmount(25_000, 25)).toBe(625_000n);
  });

  it('checks lot size and minimum notional', () => {
    expect(grid.check(25_000, 9)).toBe('BELOW_LOT_SIZE');
    expect(grid.check(1_000, 10)).toBe('BELOW_MIN_NOTIONAL');
    expect(grid.check(25_000, 40)).toBeUndefined();
  });

  it('rounds raw exchange rates onto ticks in the requested direction', () => {
    // 1 WHBAR for 0.250005 USDC: between two ticks
    expect(grid.ticksAtRate(250_005n, 100_000_000n, 'down')).toBe(25_000);
    expect(grid.ticksAtRate(250_005n, 100_000_000n, 'up')).toBe(25_001);
    expect(grid.ticksAtRate(250_000n, 100_000_000n, 'up')).toBe(25_000);
  });

  it('refuses off-grid base amounts and floors them on request', () => {
    expect(() => grid.baseSteps(15_000_000n)).toThrow(/size step/);
    expect(grid.floorBaseSteps(15_000_000n)).toBe(1);
  });

  it.each<[string, Partial<GridSpec>, RegExp]>([
    ['zero tick', { tickStep: '0' }, /tickStep/],
    ['zero size', { sizeStep: '0' }, /sizeStep/],
    ['size finer than base decimals', { sizeStep: '0.000000001' }, /sizeStep is finer/],
    ['lot not a multiple of size', { lotSize: '0.15' }, /lotSize/],
    ['notional finer than quote decimals', { minNotional: '0.0000001' }, /minNotional/],
    ['fills that would need rounding', { tickStep: '0.000001', sizeStep: '0.1' }, /whole number of quote raw units/],
    ['malformed step', { tickStep: '1e-5' }, /tickStep/],
  ])('rejects a grid with %s', (_name, change, message) => {
    expect(() => new MarketGrid({ ...hbarUsdc, ...change })).toThrow(message);
    expect(() => new MarketGrid({ ...hbarUsdc, ...change })).toThrow(CoreError);
  });

  it('keeps floor-snapped amounts on the grid and within one step of the input', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) * grid.sizeStepRaw }), (raw) => {
        const steps = grid.floorBaseSteps(raw);
        const snapped = grid.baseAmount(steps);
        expect(snapped <= raw).toBe(true);
        expect(raw - snapped < grid.sizeStepRaw).toBe(true);
        expect(grid.baseSteps(snapped)).toBe(steps);
      }),
    );
  });

  it('clamps a floor-snapped amount beyond any book to the largest safe step count', () => {
    expect(grid.floorBaseSteps(10n ** 40n)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('never lets a rounded limit price beat the signed rate', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 10n ** 6n, max: 10n ** 20n }), (quote, base) => {
        const up = grid.ticksAtRate(quote, base, 'up');
        const down = grid.ticksAtRate(quote, base, 'down');
        // price(ticks) per base raw vs quote/base, cross-multiplied
        const rate = (ticks: number) => BigInt(ticks) * grid.quotePerTickStep * base;
        expect(rate(up) >= quote * grid.sizeStepRaw).toBe(true);
        expect(rate(down) <= quote * grid.sizeStepRaw).toBe(true);
        expect(up - down <= 1).toBe(true);
      }),
    );
  });

  it('round-trips on-grid prices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (ticks) => {
        expect(grid.parsePrice(grid.formatPrice(ticks))).toBe(ticks);
      }),
    );
  });
});
