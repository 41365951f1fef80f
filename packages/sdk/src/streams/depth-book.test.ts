import { describe, expect, it } from 'vitest';
import { StreamError } from '../errors.js';
import { DepthBook } from './depth-book.js';

describe("the SDK's DepthBook", () => {
  const book = () => new DepthBook({ orderbookId: '1', lastUpdateId: 5, timestamp: 0, bids: [['1', '2']], asks: [] });
  const diff = { firstUpdateId: 6, finalUpdateId: 6, timestamp: 1, asks: [] };

  it('fails a gap with a StreamError, as every other stream failure', () => {
    const gap = { ...diff, firstUpdateId: 8, finalUpdateId: 8, bids: [] };
    expect(() => book().apply(gap)).toThrow(expect.objectContaining({ name: 'StreamError', failure: 'update-gap' }));
  });

  it('fails a level that is not a decimal with a StreamError', () => {
    expect(() => book().apply({ ...diff, bids: [['one', '1']] })).toThrow(StreamError);
  });
});
