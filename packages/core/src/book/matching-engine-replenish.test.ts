import { describe, expect, it } from 'vitest';
import { fillsOf, limit, recordingEngine } from '../test-support/engine-fixtures.js';
import { BUY, SELL } from './types.js';

describe('MatchingEngine.replenish', () => {
  it('gives a resting order back unsettled quantity at its place in the queue, with a depth event only', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 5));
    engine.place(limit(2, SELL, 100, 5));
    engine.place(limit(3, BUY, 100, 3));
    events.length = 0;
    expect(engine.apply({ type: 'replenish', id: 1, quantity: 3, time: 9_000 })).toBe(true);
    expect(events).toEqual([{ type: 'depth', side: SELL, price: 100n, quantity: 10, updateId: 4, time: 9_000 }]);
    expect(engine.getOrder(1)).toMatchObject({ quantity: 5, remaining: 5 });
    // Order 1 is still first at its price.
    engine.place(limit(4, BUY, 100, 4));
    expect(fillsOf(events).map((fill) => [fill.makerId, fill.quantity])).toEqual([[1, 4]]);
  });

  it('refuses an order that is not on the book, a size beyond the placed one, and a quantity below one', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 5));
    engine.place(limit(2, BUY, 100, 2));
    events.length = 0;
    expect(engine.replenish(2, 2, 9_000)).toBe(false);
    expect(engine.replenish(1, 3, 9_000)).toBe(false);
    expect(engine.replenish(1, 0, 9_000)).toBe(false);
    expect(engine.replenish(1, 1.5, 9_000)).toBe(false);
    expect(events).toEqual([]);
    expect(engine.replenish(1, 2, 9_000)).toBe(true);
    expect(engine.depth().asks).toEqual([[100n, 5]]);
  });
});
