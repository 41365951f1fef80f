import { describe, expect, it } from 'vitest';
import type { LevelSource } from '../quote.js';
import { fillsOf, limit, recordingEngine, statusesOf } from '../test-support/engine-fixtures.js';
import { BUY, SELL, type SelfTradePrevention } from './types.js';

/** Book: asks of owner A at 100 (order 1, 3 steps) and 101 (order 3, 4), of owner B at 100 (order 2, 2) and 102 (order 4, 5). */
function bookOfTwoOwners() {
  const recorded = recordingEngine();
  recorded.engine.place(limit(1, SELL, 100, 3, { owner: 'A' }));
  recorded.engine.place(limit(2, SELL, 100, 2, { owner: 'B' }));
  recorded.engine.place(limit(3, SELL, 101, 4, { owner: 'A' }));
  recorded.engine.place(limit(4, SELL, 102, 5, { owner: 'B' }));
  return recorded;
}

const buyOfA = (extra: { selfTradePrevention?: SelfTradePrevention; takerOnce?: boolean; quantity?: number } = {}) =>
  limit(9, BUY, 102, extra.quantity ?? 6, { owner: 'A', ...extra });

function levels(source: LevelSource): [bigint, number][] {
  const seen: [bigint, number][] = [];
  source.forEachLevel(SELL, (price, quantity) => seen.push([price, quantity]) > 0);
  return seen;
}

describe('self-trade prevention', () => {
  it("by default cancels the resting orders an owner's order meets, and matching goes on past them", () => {
    const { engine, events } = bookOfTwoOwners();
    engine.place(buyOfA());
    expect(fillsOf(events).map((fill) => [fill.makerId, fill.price, fill.quantity])).toEqual([
      [2, 100n, 2],
      [4, 102n, 4],
    ]);
    expect(statusesOf(events, 1)).toEqual(['OPEN', 'CANCELED:SELF_TRADE']);
    expect(statusesOf(events, 3)).toEqual(['OPEN', 'CANCELED:SELF_TRADE']);
    expect(statusesOf(events, 9)).toEqual(['OPEN', 'FILLED']);
    expect(engine.depth()).toMatchObject({ asks: [[102n, 1]], bids: [] });
  });

  it('EXPIRE_TAKER cancels the rest of the incoming order where it meets its own, keeping what it filled before', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(2, SELL, 100, 2, { owner: 'B' }));
    engine.place(limit(1, SELL, 100, 3, { owner: 'A' }));
    engine.place(buyOfA({ selfTradePrevention: 'EXPIRE_TAKER' }));
    expect(fillsOf(events).map((fill) => [fill.makerId, fill.quantity])).toEqual([[2, 2]]);
    expect(statusesOf(events, 9)).toEqual(['OPEN', 'CANCELED:SELF_TRADE']);
    expect(statusesOf(events, 1)).toEqual(['OPEN']);
    expect(engine.depth()).toMatchObject({ asks: [[100n, 3]], bids: [] });
  });

  it('EXPIRE_BOTH cancels both the resting order and the rest of the incoming one', () => {
    const { engine, events } = bookOfTwoOwners();
    engine.place(buyOfA({ selfTradePrevention: 'EXPIRE_BOTH' }));
    expect(fillsOf(events)).toEqual([]);
    expect(statusesOf(events, 1)).toEqual(['OPEN', 'CANCELED:SELF_TRADE']);
    expect(statusesOf(events, 9)).toEqual(['OPEN', 'CANCELED:SELF_TRADE']);
    expect(engine.depth()).toMatchObject({
      asks: [
        [100n, 2],
        [101n, 4],
        [102n, 5],
      ],
      bids: [],
    });
  });

  it('lets a takerOnce order take its one fill past a level of its own orders', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 3, { owner: 'A' }));
    engine.place(limit(2, SELL, 101, 5, { owner: 'B' }));
    engine.place(buyOfA({ takerOnce: true, quantity: 2 }));
    expect(fillsOf(events).map((fill) => [fill.makerId, fill.quantity])).toEqual([[2, 2]]);
    expect(statusesOf(events, 9)).toEqual(['OPEN', 'FILLED']);
  });

  it('checks nothing between orders without an owner, or of different owners', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 3));
    engine.place(limit(2, SELL, 100, 3, { owner: 'B' }));
    engine.place(limit(3, BUY, 100, 6));
    engine.place(limit(4, SELL, 99, 1, { owner: 'A' }));
    engine.place(limit(5, BUY, 99, 1, { owner: 'C' }));
    expect(fillsOf(events).map((fill) => fill.makerId)).toEqual([1, 2, 4]);
  });

  it("shows a budget walk the levels an owner's order would meet", () => {
    const { engine } = bookOfTwoOwners();
    expect(levels(engine.levelsFor('A'))).toEqual([
      [100n, 2],
      [102n, 5],
    ]);
    expect(levels(engine.levelsFor('A', 'EXPIRE_TAKER'))).toEqual([]);
    // B's order would fill A's 3 at 100, then meet its own there and stop.
    expect(levels(engine.levelsFor('B', 'EXPIRE_BOTH'))).toEqual([[100n, 3]]);
    expect(levels(engine.levelsFor('C'))).toEqual(levels(engine));
  });

  it('keeps owners across a restore, and counts them in the state hash', () => {
    const { engine } = bookOfTwoOwners();
    const { engine: restored } = recordingEngine({ lastUpdateId: engine.lastUpdateId });
    for (const id of [1, 2, 3, 4]) {
      const order = engine.getOrder(id);
      if (order !== undefined) restored.restore(order);
    }
    expect(restored.stateHash()).toBe(engine.stateHash());
    const { engine: anonymous } = recordingEngine({ lastUpdateId: engine.lastUpdateId });
    for (const id of [1, 2, 3, 4]) {
      const order = engine.getOrder(id);
      if (order === undefined) continue;
      const { owner: _owner, ...withoutOwner } = order;
      anonymous.restore(withoutOwner);
    }
    expect(anonymous.stateHash()).not.toBe(engine.stateHash());
  });
});
