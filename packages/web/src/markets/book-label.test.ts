import { describe, expect, it } from 'vitest';
import { bookStates, pairLabel } from './book-label.js';

describe('pairLabel', () => {
  it('uses the symbols, falling back to ledger ids', () => {
    const names = { baseTokenSymbol: 'WHBAR', quoteTokenSymbol: 'USDC', baseTokenId: '0.0.1', quoteTokenId: '0.0.2' };
    expect(pairLabel(names)).toBe('WHBAR/USDC');
    expect(pairLabel({ ...names, baseTokenSymbol: null })).toBe('0.0.1/USDC');
  });
});

describe('bookStates', () => {
  it('says an open book with nothing else is open', () => {
    expect(bookStates({ status: 'OPEN', isMarketHalted: 0, isAMMEnabled: 0 }).map((state) => state.kind)).toEqual(['open']);
  });

  it('adds halted and AMM where the flags say so', () => {
    expect(bookStates({ status: 'CLOSED', isMarketHalted: 1, isAMMEnabled: 1 }).map((state) => state.kind)).toEqual([
      'closed',
      'halted',
      'amm',
    ]);
  });
});
