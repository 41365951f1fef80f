import { fromDisplayAmount, MarketGrid, parseRawAmount, toDisplayAmount } from '@dex/core';
import { InvalidParameterError } from './errors.js';
import type { OrderbookItem } from './types.js';
import { asParameter, type RawAmount } from './utils/parameters.js';

/**
 * A human-readable amount in raw token units: `toRaw('1.5', 8)` is `150000000n`. More fractional
 * digits than the token has is an error, never a silent rounding.
 */
export function toRaw(display: string, decimals: number): bigint {
  return asParameter('display', () => fromDisplayAmount(display, decimals, 'display'));
}

/** Raw token units as a human-readable amount: `toDisplay('150000000', 8)` is `"1.5"`. */
export function toDisplay(raw: RawAmount, decimals: number): string {
  return asParameter('raw', () =>
    toDisplayAmount(parseRawAmount(typeof raw === 'bigint' ? raw.toString() : raw, 'raw'), decimals),
  );
}

/** The fields of an order book item that define its grid. */
export type BookGrid = Pick<
  OrderbookItem,
  'tickStep' | 'sizeStep' | 'lotSize' | 'minNotional' | 'baseTokenDecimals' | 'quoteTokenDecimals'
>;

function gridOf(book: BookGrid): MarketGrid {
  const { baseTokenDecimals, quoteTokenDecimals } = book;
  if (baseTokenDecimals === null || quoteTokenDecimals === null) {
    throw new InvalidParameterError('book', 'The book does not say its token decimals, so its grid is unknown');
  }
  return asParameter(
    'book',
    () =>
      new MarketGrid({
        baseDecimals: baseTokenDecimals,
        quoteDecimals: quoteTokenDecimals,
        tickStep: book.tickStep,
        sizeStep: book.sizeStep,
        lotSize: book.lotSize,
        minNotional: book.minNotional,
      }),
  );
}

/**
 * A raw base amount floored to a whole number of the book's size steps: the most of it an order can
 * use. The result can still be below the book's lot size or minimum notional.
 *
 * @example
 * snapSizeDown(whbarUsdc, 305_000_000n); // 300000000n with a size step of 0.1 WHBAR (8 decimals)
 */
export function snapSizeDown(book: BookGrid, baseRaw: RawAmount): bigint {
  const amount = asParameter('baseRaw', () =>
    parseRawAmount(typeof baseRaw === 'bigint' ? baseRaw.toString() : baseRaw, 'baseRaw'),
  );
  const step = gridOf(book).sizeStepRaw;
  return amount - (amount % step);
}
