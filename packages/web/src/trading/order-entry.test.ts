import { InvalidParameterError } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { TEST_BOOK } from '../test-support/test-book.js';
import { checkOrder, type OrderInput } from './order-entry.js';

const book = TEST_BOOK;
const BASE = book.baseTokenEvmAddress;
const QUOTE = book.quoteTokenEvmAddress;

function preview(input: OrderInput) {
  const check = checkOrder(book, input);
  if (!check.ok) throw check.error;
  return check.preview;
}

function refusal(input: OrderInput): InvalidParameterError {
  const check = checkOrder(book, input);
  if (check.ok || !(check.error instanceof InvalidParameterError)) throw new Error('expected a refusal');
  return check.error;
}

describe('checkOrder', () => {
  it('snaps a buy price down and a sell price up to the tick, and sizes down to the step', () => {
    expect(preview({ type: 'limit', side: 'buy', price: '0.2500049', size: '10.55' })).toMatchObject({
      price: '0.25',
      size: '10.5',
      total: '2.625',
      request: { type: 'LIMIT', inputToken: QUOTE, inputAmount: '2625000', outputToken: BASE, outputAmount: '1050000000' },
    });
    expect(preview({ type: 'limit', side: 'sell', price: '0.2500049', size: '10' })).toMatchObject({
      price: '0.25001',
      size: '10',
      total: '2.5001',
      request: { inputToken: BASE, inputAmount: '1000000000', outputToken: QUOTE, outputAmount: '2500100' },
    });
  });

  it('refuses what the grid refuses, saying why', () => {
    expect(refusal({ type: 'limit', side: 'buy', price: '0.25', size: '0.5' }).message).toContain(
      'lot size of 100000000 base raw units (1)',
    );
    expect(refusal({ type: 'limit', side: 'buy', price: '0.01', size: '10' }).message).toContain(
      'minimum notional of 1000000 quote raw units (1)',
    );
    expect(refusal({ type: 'limit', side: 'buy', price: '0', size: '10' }).parameter).toBe('price');
    expect(refusal({ type: 'limit', side: 'buy', price: 'abc', size: '10' }).parameter).toBe('price');
    expect(refusal({ type: 'limit', side: 'buy', price: '0.25', size: '' }).parameter).toBe('size');
  });

  it('sells a base size on the grid at market, and buys with a quote amount', () => {
    expect(preview({ type: 'market', side: 'sell', amount: '2.37' })).toMatchObject({
      size: '2.3',
      request: { type: 'MARKET', inputToken: BASE, inputAmount: '230000000', outputToken: QUOTE, outputAmount: '1' },
    });
    expect(preview({ type: 'market', side: 'buy', amount: '5.5' })).toMatchObject({
      total: '5.5',
      request: { type: 'MARKET', inputToken: QUOTE, inputAmount: '5500000', outputToken: BASE, outputAmount: '1' },
    });
  });

  it('refuses a market order of nothing or of more digits than the token has', () => {
    expect(refusal({ type: 'market', side: 'sell', amount: '0.05' }).parameter).toBe('size');
    expect(refusal({ type: 'market', side: 'buy', amount: '0' }).parameter).toBe('amount');
    expect(refusal({ type: 'market', side: 'buy', amount: '0.0000001' }).parameter).toBe('amount');
  });
});
