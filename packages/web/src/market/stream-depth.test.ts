import { DepthBook } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { depthOfView, spreadPercentOf } from './stream-depth.js';

describe('a streamed book as a depth snapshot', () => {
  it('says the spread relative to the mid price as GET /depth does', () => {
    expect(spreadPercentOf('0.249', '0.25')).toBe('0.4008');
    expect(spreadPercentOf('1', '1.0')).toBe('0.0000');
    expect(spreadPercentOf(undefined, '1')).toBeNull();
    expect(spreadPercentOf('1', undefined)).toBeNull();
  });

  it('carries the levels, the update id and the snapshot’s token ids', () => {
    const book = new DepthBook({
      orderbookId: '1',
      lastUpdateId: 7,
      timestamp: 1000,
      bids: [['0.249', '10']],
      asks: [['0.25', '5']],
    });
    expect(depthOfView(book, { baseTokenId: 'b', quoteTokenId: 'q' })).toEqual({
      orderbookId: '1',
      timestamp: 1000,
      baseTokenId: 'b',
      quoteTokenId: 'q',
      bestBidQuote: '0.249',
      bestAskQuote: '0.25',
      spreadPercent: '0.4008',
      bids: [['0.249', '10']],
      asks: [['0.25', '5']],
      lastUpdateId: 7,
    });
  });
});
