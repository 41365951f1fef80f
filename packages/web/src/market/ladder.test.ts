import { describe, expect, it } from 'vitest';
import { buildLadder, cumulativeLevels, sideTotal, spreadOf } from './ladder.js';

const depth = {
  asks: [
    ['0.2501', '100'],
    ['0.2502', '50.5'],
    ['0.2510', '0.00000001'],
  ] as [string, string][],
  bids: [
    ['0.2499', '10'],
    ['0.2498', '20'],
  ] as [string, string][],
  spreadPercent: '0.0800',
};

describe('cumulativeLevels', () => {
  it('sums sizes from the best price outward', () => {
    expect(cumulativeLevels(depth.asks).map((level) => level.cumulative)).toEqual(['100', '150.5', '150.50000001']);
  });

  it('keeps the prices and sizes exactly as given', () => {
    expect(cumulativeLevels([['0.2510', '1.000']])).toEqual([{ price: '0.2510', size: '1.000', cumulative: '1' }]);
  });

  it('totals an empty side as zero', () => {
    expect(sideTotal(cumulativeLevels([]))).toBe('0');
  });
});

describe('buildLadder', () => {
  it('puts the highest ask on top and the best ask last, next to the spread', () => {
    const ladder = buildLadder(depth);
    expect(ladder.asks.map((row) => row.price)).toEqual(['0.2510', '0.2502', '0.2501']);
    expect(ladder.bids.map((row) => row.price)).toEqual(['0.2499', '0.2498']);
  });

  it('scales the bars of both sides by the deeper side', () => {
    const ladder = buildLadder(depth);
    expect(ladder.asks[0]?.depthFraction).toBe(1);
    expect(ladder.bids[1]?.depthFraction).toBeCloseTo(30 / 150.50000001, 5);
    expect(ladder.asks.every((row) => row.side === 'ask')).toBe(true);
  });

  it('handles an empty book', () => {
    expect(buildLadder({ asks: [], bids: [], spreadPercent: null })).toEqual({ asks: [], bids: [], spread: undefined });
  });

  it('handles one empty side: no spread, bars at full depth', () => {
    const ladder = buildLadder({ asks: [], bids: [['1', '2']], spreadPercent: null });
    expect(ladder.spread).toBeUndefined();
    expect(ladder.bids[0]?.depthFraction).toBe(1);
  });
});

describe('spreadOf', () => {
  it('is best ask minus best bid, exact, with the percent as the API gave it', () => {
    expect(spreadOf(depth)).toEqual({ absolute: '0.0002', percent: '0.0800' });
  });

  it('keeps many decimals', () => {
    const spread = spreadOf({
      asks: [['1.000000000000000002', '1']],
      bids: [['1.000000000000000001', '1']],
      spreadPercent: null,
    });
    expect(spread).toEqual({ absolute: '0.000000000000000001', percent: null });
  });
});
