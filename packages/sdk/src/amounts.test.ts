import { fromDisplayAmount, MAX_TOKEN_DECIMALS } from '@dex/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BookForOrders,
  type BookGrid,
  bookGrid,
  limitOrderRequest,
  marketOrderRequest,
  snapPrice,
  snapSize,
  snapSizeDown,
  toDisplay,
  toRaw,
} from './amounts.js';
import { InvalidParameterError } from './errors.js';

/**
 * The grid of the devnet's WHBAR/USDC book (size step 0.1 WHBAR = 10,000,000 raw units) as this
 * service sent it before it followed the live one: lot size and minimum notional in whole tokens.
 */
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

describe('bookGrid', () => {
  it('reads the lot size and minimum notional in raw units, as the live service sends them, and as display decimals', () => {
    const raw = bookGrid({ ...WHBAR_USDC, lotSize: '100000000', minNotional: '1000000' });
    const display = bookGrid(WHBAR_USDC);
    for (const grid of [raw, display]) {
      expect(grid.spec.lotSize).toBe(100_000_000n);
      expect(grid.minNotionalRaw).toBe(1_000_000n);
      expect(grid.lotSteps).toBe(10);
    }
    // A decimal point can only be a display amount; an integer off the size grid too.
    expect(bookGrid({ ...WHBAR_USDC, lotSize: '0.1', minNotional: '0.5' }).minNotionalRaw).toBe(500_000n);
    expect(bookGrid({ ...WHBAR_USDC, lotSize: '10000000', minNotional: '15000000' }).minNotionalRaw).toBe(15_000_000n);
  });

  it('takes the live HBAR/USDC grid, whose tick of one size step is a hundredth of a raw USDC', () => {
    const grid = bookGrid(LIVE_HBAR_USDC);
    expect(grid.stepValue).toEqual({ num: 1n, den: 100n });
    expect(grid.describeLot()).toBe('10000000 base raw units (0.1)');
    expect(grid.describeMinNotional()).toBe('15000000 quote raw units (15)');
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

/** The live mainnet's HBAR/USDC book as `GET /books` lists it: raw lot and minimum notional, tick 0.0000001. */
const LIVE_HBAR_USDC: BookForOrders = {
  tickStep: '0.0000001',
  sizeStep: '0.1',
  lotSize: '10000000',
  minNotional: '15000000',
  baseTokenDecimals: 8,
  quoteTokenDecimals: 6,
  id: 1,
  baseTokenEvmAddress: '0x0000000000000000000000000000000000000000',
  quoteTokenEvmAddress: '0x000000000000000000000000000000000006f89a',
};

const BOOK: BookForOrders = {
  ...WHBAR_USDC,
  id: 1,
  baseTokenEvmAddress: '0x00000000000000000000000000000000000003e9',
  quoteTokenEvmAddress: '0x00000000000000000000000000000000000003ea',
};

/** A display decimal as an exact rational at a fixed large scale, for comparisons. */
const exact = (display: string) => fromDisplayAmount(display, MAX_TOKEN_DECIMALS);
const displayArbitrary = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 12 }))
  .map(([units, scale]) => toDisplay(units, scale));

describe('snapPrice and snapSize', () => {
  it.each([
    ['0.2500049', 'down', '0.25'],
    ['0.2500049', 'up', '0.25001'],
    ['0.25', 'up', '0.25'],
    ['7', 'down', '7'],
    ['0.000001', 'up', '0.00001'],
    ['0.000001', 'down', '0'],
  ] as const)('snaps the price %s %s to %s', (price, rounding, snapped) => {
    expect(snapPrice(WHBAR_USDC, price, rounding)).toBe(snapped);
  });

  it('puts any price on the grid, on the asked side, within one tick', () => {
    fc.assert(
      fc.property(displayArbitrary, (price) => {
        const down = snapPrice(WHBAR_USDC, price);
        const up = snapPrice(WHBAR_USDC, price, 'up');
        const tick = exact('0.00001');
        expect(exact(down) % tick).toBe(0n);
        expect(exact(up) % tick).toBe(0n);
        expect(exact(down) <= exact(price) && exact(price) <= exact(up)).toBe(true);
        expect(exact(up) - exact(down)).toBe(exact(price) % tick === 0n ? 0n : tick);
        expect(snapPrice(WHBAR_USDC, down)).toBe(down);
      }),
    );
  });

  it('puts any size on the size grid the same way', () => {
    fc.assert(
      fc.property(displayArbitrary, (size) => {
        const down = snapSize(WHBAR_USDC, size);
        const up = snapSize(WHBAR_USDC, size, 'up');
        const step = exact('0.1');
        expect(exact(down) % step).toBe(0n);
        expect(exact(down) <= exact(size) && exact(size) <= exact(up)).toBe(true);
        expect(exact(up) - exact(down) <= step).toBe(true);
      }),
    );
  });

  it.each(['-1', '1e3', 'abc', ''])('refuses the price %j', (price) => {
    expect(() => snapPrice(WHBAR_USDC, price)).toThrow(expect.objectContaining({ parameter: 'price' }));
  });
});

describe('limitOrderRequest', () => {
  it('sells exactly the size for exactly price times size', () => {
    expect(limitOrderRequest(BOOK, { side: 'sell', price: '0.5', size: '2', makerOnly: true })).toEqual({
      orderbookId: 1,
      type: 'LIMIT',
      inputToken: BOOK.baseTokenEvmAddress,
      inputAmount: '200000000',
      outputToken: BOOK.quoteTokenEvmAddress,
      outputAmount: '1000000',
      makerOnly: true,
    });
  });

  it('buys the size for the quote amount, the mirror image', () => {
    expect(limitOrderRequest(BOOK, { side: 'buy', price: '0.24999', size: '10.5', deadline: 1_900_000_000 })).toEqual({
      orderbookId: 1,
      type: 'LIMIT',
      inputToken: BOOK.quoteTokenEvmAddress,
      inputAmount: '2624895',
      outputToken: BOOK.baseTokenEvmAddress,
      outputAmount: '1050000000',
      deadline: 1_900_000_000,
    });
  });

  it("rounds price times size in the signer's favour where it falls between raw units of the quote", () => {
    // 100 HBAR at 0.1712345 USDC is 17.12345 USDC, exact; 0.3 HBAR is 0.05137035, between raw units.
    expect(limitOrderRequest(LIVE_HBAR_USDC, { side: 'sell', price: '0.1712345', size: '100' }).outputAmount).toBe('17123450');
    const sell = limitOrderRequest(LIVE_HBAR_USDC, { side: 'sell', price: '150.1712345', size: '0.3' });
    const buy = limitOrderRequest(LIVE_HBAR_USDC, { side: 'buy', price: '150.1712345', size: '0.3' });
    // 45.05137035 USDC: a seller receives at least 45.051371, a buyer pays at most 45.05137.
    expect(sell.outputAmount).toBe('45051371');
    expect(buy.inputAmount).toBe('45051370');
  });

  it('takes exactly one lot at exactly the minimum notional, and refuses a raw unit less', () => {
    expect(limitOrderRequest(LIVE_HBAR_USDC, { side: 'buy', price: '150', size: '0.1' }).inputAmount).toBe('15000000');
    expect(() => limitOrderRequest(LIVE_HBAR_USDC, { side: 'buy', price: '149.9999999', size: '0.1' })).toThrow(
      /below the minimum notional of 15000000 quote raw units \(15\)/,
    );
  });

  it('prices every on-grid order exactly: quote = ticks x steps x the quote of one tick-step', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000, max: 10_000_000 }), fc.integer({ min: 1_000, max: 1_000_000 }), (ticks, steps) => {
        const price = toDisplay(BigInt(ticks), 5);
        const size = toDisplay(BigInt(steps), 1);
        const request = limitOrderRequest(BOOK, { side: 'sell', price, size });
        expect(BigInt(request.inputAmount)).toBe(BigInt(steps) * 10_000_000n);
        expect(BigInt(request.outputAmount)).toBe(BigInt(ticks) * BigInt(steps));
      }),
    );
  });

  it.each([
    ['a price off the tick grid', { price: '0.250001', size: '1' }, 'price'],
    ['a size off the size grid', { price: '0.25', size: '1.05' }, 'size'],
    ['a size below the lot size', { price: '0.25', size: '0.5' }, 'size'],
    ['a value below the minimum notional', { price: '0.5', size: '1.9' }, 'size'],
    ['a zero price', { price: '0', size: '5' }, 'price'],
  ])('refuses %s', (_name, spec, parameter) => {
    expect(() => limitOrderRequest(BOOK, { side: 'buy', ...spec })).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter }),
    );
  });
});

describe('marketOrderRequest', () => {
  it('spends base on a sell and quote on a buy, with a floor on what comes back', () => {
    expect(marketOrderRequest(BOOK, { side: 'sell', inputAmount: 300_000_000n, minOutputAmount: '700000' })).toMatchObject({
      type: 'MARKET',
      inputToken: BOOK.baseTokenEvmAddress,
      inputAmount: '300000000',
      outputToken: BOOK.quoteTokenEvmAddress,
      outputAmount: '700000',
    });
    expect(marketOrderRequest(BOOK, { side: 'buy', inputAmount: '1000000' })).toMatchObject({
      inputToken: BOOK.quoteTokenEvmAddress,
      inputAmount: '1000000',
      outputAmount: '1',
    });
  });

  it('refuses a zero or malformed input', () => {
    expect(() => marketOrderRequest(BOOK, { side: 'sell', inputAmount: 0n })).toThrow(
      expect.objectContaining({ parameter: 'inputAmount' }),
    );
    expect(() => marketOrderRequest(BOOK, { side: 'sell', inputAmount: '1.5' })).toThrow(
      expect.objectContaining({ parameter: 'inputAmount' }),
    );
  });
});
