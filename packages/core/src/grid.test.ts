import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError } from './errors.js';
import { type DisplayGridSpec, type GridSpec, gridSpecOfDisplay, MAX_PRICE_TICKS, MarketGrid } from './grid.js';
import { HBAR_USDC_GRID } from './test-support/engine-fixtures.js';

/** WHBAR (8 decimals) priced in USDC (6 decimals). */
const hbarUsdc: GridSpec = HBAR_USDC_GRID;

/** The live mainnet's HBAR/USDC book: a tick of one size step is a hundredth of a raw USDC. */
const liveHbarUsdc: DisplayGridSpec = {
  baseDecimals: 8,
  quoteDecimals: 6,
  tickStep: '0.0000001',
  sizeStep: '0.1',
  lotSize: '0.1',
  minNotional: '15',
};

describe('MarketGrid', () => {
  const grid = new MarketGrid(hbarUsdc);

  it('derives raw units per step and the value of one step at one tick', () => {
    expect(grid.sizeStepRaw).toBe(10_000_000n);
    expect(grid.stepValue).toEqual({ num: 1n, den: 1n });
    expect(grid.isExact).toBe(true);
    expect(grid.lotSteps).toBe(10);
    expect(grid.minNotionalRaw).toBe(1_000_000n);
  });

  it('reads lot sizes and minimum notionals written as display decimals', () => {
    const spec = gridSpecOfDisplay(liveHbarUsdc);
    expect(spec.lotSize).toBe(10_000_000n);
    expect(spec.minNotional).toBe(15_000_000n);
  });

  it('accepts a grid whose tick times size step is a fraction of a quote raw unit', () => {
    const fine = new MarketGrid(gridSpecOfDisplay(liveHbarUsdc));
    expect(fine.stepValue).toEqual({ num: 1n, den: 100n });
    expect(fine.isExact).toBe(false);
    // 0.1 HBAR at 0.1712345 USDC is 17123.45 raw USDC: rounded as asked.
    expect(fine.quoteAmount(1_712_345n, 1, 'down')).toBe(17_123n);
    expect(fine.quoteAmount(1_712_345n, 1, 'up')).toBe(17_124n);
    expect(fine.quoteAmount(1_712_345n, 20, 'up')).toBe(342_469n);
    expect(fine.ticksAtRate(17_124n, 10_000_000n, 'down')).toBe(1_712_400n);
  });

  it('converts prices between display and ticks', () => {
    expect(grid.parsePrice('0.25')).toBe(25_000n);
    expect(grid.formatPrice(25_000n)).toBe('0.25');
    expect(grid.formatPrice(1n)).toBe('0.00001');
    expect(() => grid.parsePrice('0.000015')).toThrow(/tick step/);
  });

  it('refuses a price above the largest tick', () => {
    expect(grid.parsePrice(grid.formatPrice(MAX_PRICE_TICKS))).toBe(MAX_PRICE_TICKS);
    expect(() => grid.parsePrice(grid.formatPrice(MAX_PRICE_TICKS + 1n))).toThrow(/too high/);
  });

  it('computes exact fill amounts on an exact grid, whichever way it is asked to round', () => {
    // 2.5 WHBAR at 0.25 USDC = 0.625 USDC
    expect(grid.baseAmount(25)).toBe(250_000_000n);
    expect(grid.quoteAmount(25_000n, 25, 'down')).toBe(625_000n);
    expect(grid.quoteAmount(25_000n, 25, 'up')).toBe(625_000n);
  });

  it('checks lot size and minimum notional', () => {
    expect(grid.check(9, 10n ** 12n)).toBe('BELOW_LOT_SIZE');
    expect(grid.check(10, 999_999n)).toBe('BELOW_MIN_NOTIONAL');
    expect(grid.check(10, 1_000_000n)).toBeUndefined();
  });

  it('describes the lot and the minimum notional in raw units and in tokens', () => {
    expect(grid.describeLot()).toBe('100000000 base raw units (1)');
    expect(grid.describeMinNotional()).toBe('1000000 quote raw units (1)');
  });

  it('rounds raw exchange rates onto ticks in the requested direction', () => {
    // 1 WHBAR for 0.250005 USDC: between two ticks
    expect(grid.ticksAtRate(250_005n, 100_000_000n, 'down')).toBe(25_000n);
    expect(grid.ticksAtRate(250_005n, 100_000_000n, 'up')).toBe(25_001n);
    expect(grid.ticksAtRate(250_000n, 100_000_000n, 'up')).toBe(25_000n);
  });

  it('refuses off-grid base amounts and floors them on request', () => {
    expect(() => grid.baseSteps(15_000_000n)).toThrow(/size step/);
    expect(grid.floorBaseSteps(15_000_000n)).toBe(1);
  });

  it.each<[string, Partial<GridSpec>, RegExp]>([
    ['zero tick', { tickStep: '0' }, /tickStep/],
    ['zero size', { sizeStep: '0' }, /sizeStep/],
    ['size finer than base decimals', { sizeStep: '0.000000001' }, /sizeStep is finer/],
    ['lot not a multiple of size', { lotSize: 15_000_000n }, /lotSize/],
    ['zero lot', { lotSize: 0n }, /lotSize/],
    ['negative minimum notional', { minNotional: -1n }, /minNotional/],
    ['malformed step', { tickStep: '1e-5' }, /tickStep/],
  ])('rejects a grid with %s', (_name, change, message) => {
    expect(() => new MarketGrid({ ...hbarUsdc, ...change })).toThrow(message);
    expect(() => new MarketGrid({ ...hbarUsdc, ...change })).toThrow(CoreError);
  });

  it('refuses display lot sizes and minimum notionals finer than their tokens', () => {
    expect(() => gridSpecOfDisplay({ ...liveHbarUsdc, minNotional: '0.0000001' })).toThrow(/minNotional/);
    expect(() => gridSpecOfDisplay({ ...liveHbarUsdc, lotSize: '0.000000001' })).toThrow(/lotSize/);
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

  it('never lets a rounded limit price beat the signed rate, on exact and fine grids', () => {
    const grids = fc.constantFrom(grid, new MarketGrid(gridSpecOfDisplay(liveHbarUsdc)));
    fc.assert(
      fc.property(
        grids,
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 20n }),
        (g, quote, base) => {
          const up = g.ticksAtRate(quote, base, 'up');
          const down = g.ticksAtRate(quote, base, 'down');
          // The price of `ticks` per base raw unit against quote / base, cross-multiplied exactly.
          const rate = (ticks: bigint) => ticks * g.stepValue.num * base;
          const signed = quote * g.sizeStepRaw * g.stepValue.den;
          expect(rate(up) >= signed).toBe(true);
          expect(rate(down) <= signed).toBe(true);
          expect(up - down <= 1n).toBe(true);
        },
      ),
    );
  });

  it('rounds quote amounts to the nearest raw unit on the side asked, never further', () => {
    const fine = new MarketGrid(gridSpecOfDisplay(liveHbarUsdc));
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_PRICE_TICKS }), fc.integer({ min: 1, max: 1_000_000 }), (ticks, steps) => {
        const exact = ticks * BigInt(steps) * fine.stepValue.num; // in 1/den raw units
        const down = fine.quoteAmount(ticks, steps, 'down');
        const up = fine.quoteAmount(ticks, steps, 'up');
        expect(down * fine.stepValue.den <= exact && exact < (down + 1n) * fine.stepValue.den).toBe(true);
        expect(up * fine.stepValue.den >= exact && exact > (up - 1n) * fine.stepValue.den).toBe(true);
      }),
    );
  });

  it('round-trips on-grid prices', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_PRICE_TICKS }), (ticks) => {
        expect(grid.parsePrice(grid.formatPrice(ticks))).toBe(ticks);
      }),
    );
  });
});
