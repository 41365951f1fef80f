import { InvalidParameterError } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { TEST_BOOK } from '../test-support/test-book.js';
import { amountToken, quoteRequest } from './quote-request.js';

const book = TEST_BOOK;
const BASE = book.baseTokenEvmAddress;
const QUOTE = book.quoteTokenEvmAddress;

describe('amountToken', () => {
  it('counts what is spent for exact input and what is received for exact output', () => {
    expect(amountToken({ side: 'sell', mode: 'exact-input' })).toBe('base');
    expect(amountToken({ side: 'sell', mode: 'exact-output' })).toBe('quote');
    expect(amountToken({ side: 'buy', mode: 'exact-input' })).toBe('quote');
    expect(amountToken({ side: 'buy', mode: 'exact-output' })).toBe('base');
  });
});

describe('quoteRequest', () => {
  it('spends base in raw units for an exact-input sell', () => {
    expect(quoteRequest(book, { mode: 'exact-input', side: 'sell', amount: '1.5', includePool: false })).toEqual({
      mode: 'exact-input',
      parameters: { orderbookId: 1, inputToken: BASE, inputAmount: '150000000' },
    });
  });

  it('receives base for an exact-output buy', () => {
    expect(quoteRequest(book, { mode: 'exact-output', side: 'buy', amount: ' 2 ', includePool: false })).toEqual({
      mode: 'exact-output',
      parameters: { orderbookId: 1, outputToken: BASE, outputAmount: '200000000' },
    });
  });

  it('asks about the pool only on a book that has one', () => {
    const withPool = { ...book, isAMMEnabled: 1 as const };
    const request = quoteRequest(withPool, { mode: 'exact-input', side: 'buy', amount: '3', includePool: true });
    expect(request.parameters).toEqual({ orderbookId: 1, inputToken: QUOTE, inputAmount: '3000000', isAMMEnabled: true });
  });

  it.each(['-1', 'abc', '', '1.123456789', '1e5'])(
    'turns the malformed amount %j into the SDK error, named after the field',
    (amount) => {
      const attempt = () => quoteRequest(book, { mode: 'exact-input', side: 'sell', amount, includePool: false });
      expect(attempt).toThrow(InvalidParameterError);
      expect(attempt).toThrow(expect.objectContaining({ parameter: 'amount' }));
    },
  );

  it('passes raw units through untouched when the token decimals are unknown, for the SDK to judge', () => {
    const noDecimals = { ...book, baseTokenDecimals: null };
    const request = quoteRequest(noDecimals, { mode: 'exact-input', side: 'sell', amount: '-1', includePool: false });
    expect(request.parameters).toMatchObject({ inputAmount: '-1' });
  });
});
