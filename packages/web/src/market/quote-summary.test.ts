import { describe, expect, it } from 'vitest';
import { TEST_BOOK } from '../test-support/test-book.js';
import { averagePrice, summariseQuote } from './quote-summary.js';

const book = TEST_BOOK;
const BASE = book.baseTokenEvmAddress;
const QUOTE = book.quoteTokenEvmAddress;

describe('averagePrice', () => {
  it('divides quote by base in whole tokens, exactly, rounded down', () => {
    // 2 WHBAR for 0.5 USDC: 0.25 USDC per WHBAR.
    expect(averagePrice(book, '200000000', '500000', 9)).toBe('0.25');
    // 3 WHBAR for 1 USDC: 0.333333333...
    expect(averagePrice(book, '300000000', '1000000', 9)).toBe('0.333333333');
  });

  it('has none for an empty fill or unknown decimals', () => {
    expect(averagePrice(book, '0', '0', 9)).toBeUndefined();
    expect(averagePrice({ ...book, quoteTokenDecimals: null }, '1', '1', 9)).toBeUndefined();
  });
});

describe('summariseQuote', () => {
  it('shows an exact-input sell: base spent, quote received, in tokens and raw units', () => {
    const summary = summariseQuote(book, 'sell', {
      mode: 'exact-input',
      quote: {
        outputToken: QUOTE,
        snappedInputAmount: '150000000',
        consumedInputAmount: '150000000',
        expectedOutputAmount: '375000',
        suggestedOutputAmount: '371250',
        slippageBps: 100,
        fillable: true,
      },
    });
    expect(summary.amounts.map(({ field, token, display }) => [field, token, display])).toEqual([
      ['snappedInputAmount', 'base', '1.5'],
      ['consumedInputAmount', 'base', '1.5'],
      ['expectedOutputAmount', 'quote', '0.375'],
      ['suggestedOutputAmount', 'quote', '0.37125'],
    ]);
    expect(summary.averagePrice).toBe('0.25');
    expect(summary).toMatchObject({ fillable: true, slippageBps: 100 });
  });

  it('shows what the book leaves of the amount to spend', () => {
    const summary = summariseQuote(book, 'buy', {
      mode: 'exact-input',
      quote: {
        outputToken: BASE,
        snappedInputAmount: '100000000000000',
        consumedInputAmount: '22215175',
        expectedOutputAmount: '8840000000',
        suggestedOutputAmount: '8795800000',
        slippageBps: 50,
        fillable: true,
      },
    });
    expect(summary.amounts.find((amount) => amount.field === 'unspentInputAmount')).toMatchObject({
      token: 'quote',
      raw: '99999977784825',
      display: '99999977.784825',
    });
    expect(summary.averagePrice).toBe('0.251302884');
  });

  it('shows an exact-output buy: base received, quote spent', () => {
    const summary = summariseQuote(book, 'buy', {
      mode: 'exact-output',
      quote: {
        inputToken: QUOTE,
        requestedOutputAmount: '100000000',
        snappedOutputAmount: '100000000',
        expectedInputAmount: '250010',
        suggestedInputAmount: '252510',
        slippageBps: 100,
        fillable: false,
      },
    });
    expect(summary.amounts.map(({ token }) => token)).toEqual(['base', 'base', 'quote', 'quote']);
    expect(summary.averagePrice).toBe('0.25001');
    expect(summary.fillable).toBe(false);
  });

  it('leaves the token amounts out when the book does not say its decimals', () => {
    const summary = summariseQuote({ ...book, baseTokenDecimals: null }, 'sell', {
      mode: 'exact-input',
      quote: {
        outputToken: QUOTE,
        snappedInputAmount: '0',
        consumedInputAmount: '0',
        expectedOutputAmount: '0',
        suggestedOutputAmount: '0',
        slippageBps: 100,
        fillable: false,
      },
    });
    expect(summary.amounts[0]).toMatchObject({ raw: '0', display: undefined });
    expect(summary.averagePrice).toBeUndefined();
  });
});
