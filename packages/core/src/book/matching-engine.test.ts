import { describe, expect, it } from 'vitest';
import { MAX_PRICE_TICKS } from '../grid.js';
import { fillsOf, limit, recordingEngine, statusesOf } from '../test-support/engine-fixtures.js';
import type { DepthEvent } from './events.js';
import { MatchingEngine } from './matching-engine.js';
import { BUY, SELL } from './types.js';

describe('MatchingEngine', () => {
  it('rests a limit order that does not cross and reports it OPEN', () => {
    const { engine, events } = recordingEngine();
    expect(engine.place(limit(1, BUY, 100, 5))).toBe(true);
    expect(statusesOf(events, 1)).toEqual(['OPEN']);
    expect(engine.depth()).toEqual({ bids: [[100n, 5]], asks: [], lastUpdateId: 1 });
    expect(engine.getOrder(1)).toEqual({ id: 1, side: BUY, price: 100n, quantity: 5, remaining: 5 });
  });

  it('fills at the maker price, oldest order first within a level', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 101, 3));
    engine.place(limit(2, SELL, 100, 3));
    engine.place(limit(3, SELL, 100, 3));
    engine.place(limit(4, BUY, 105, 7));
    expect(fillsOf(events).map((fill) => [fill.makerId, fill.price, fill.quantity])).toEqual([
      [2, 100n, 3],
      [3, 100n, 3],
      [1, 101n, 1],
    ]);
    expect(statusesOf(events, 4)).toEqual(['OPEN', 'FILLED']);
    expect(statusesOf(events, 1)).toEqual(['OPEN', 'PARTIALLY_FILLED']);
    expect(engine.depth().asks).toEqual([[101n, 2]]);
  });

  it('keeps the time priority of a partially filled maker', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, BUY, 100, 10));
    engine.place(limit(2, BUY, 100, 10));
    engine.place(limit(3, SELL, 100, 4));
    engine.place(limit(4, SELL, 100, 8));
    expect(fillsOf(events).map((fill) => [fill.makerId, fill.quantity])).toEqual([
      [1, 4],
      [1, 6],
      [2, 2],
    ]);
  });

  it('rests the remainder of a crossing order at its limit price', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 2));
    engine.place(limit(2, BUY, 102, 5));
    expect(statusesOf(events, 2)).toEqual(['OPEN', 'PARTIALLY_FILLED']);
    expect(engine.depth()).toMatchObject({ bids: [[102n, 3]], asks: [] });
  });

  it('cancels an open order and removes its empty level', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 2));
    engine.place(limit(2, SELL, 100, 3));
    expect(engine.cancel(1, 'USER', 5_000)).toBe(true);
    expect(engine.depth().asks).toEqual([[100n, 3]]);
    expect(engine.cancel(2, 'USER', 5_000)).toBe(true);
    expect(engine.depth().asks).toEqual([]);
    expect(statusesOf(events, 2)).toEqual(['OPEN', 'CANCELED:USER']);
  });

  it('answers false and emits nothing for a cancel of an unknown or finished order', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 2));
    engine.place(limit(2, BUY, 100, 2));
    const before = events.length;
    expect(engine.cancel(1, 'USER', 1)).toBe(false);
    expect(engine.cancel(99, 'USER', 1)).toBe(false);
    expect(events.length).toBe(before);
  });

  it('rejects a maker-only order that would take, and rests one that would not', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 2));
    expect(engine.place(limit(2, BUY, 100, 1, { makerOnly: true }))).toBe(false);
    expect(statusesOf(events, 2)).toEqual(['REJECTED:WOULD_TAKE']);
    expect(engine.place(limit(3, BUY, 99, 1, { makerOnly: true }))).toBe(true);
    expect(engine.depth().bids).toEqual([[99n, 1]]);
  });

  it('lets a taker-once order take one fill and rest the remainder once it no longer crosses', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 2));
    engine.place(limit(2, BUY, 100, 5, { takerOnce: true }));
    expect(fillsOf(events)).toHaveLength(1);
    expect(statusesOf(events, 2)).toEqual(['OPEN', 'PARTIALLY_FILLED']);
    expect(engine.depth().bids).toEqual([[100n, 3]]);
  });

  it('cancels a taker-once remainder that would still cross after its one fill', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 2));
    engine.place(limit(2, SELL, 100, 2));
    engine.place(limit(3, BUY, 100, 5, { takerOnce: true }));
    expect(fillsOf(events).map((fill) => fill.makerId)).toEqual([1]);
    expect(statusesOf(events, 3)).toEqual(['OPEN', 'CANCELED:TAKER_ONCE']);
    expect(engine.depth()).toMatchObject({ bids: [], asks: [[100n, 2]] });
  });

  it('cancels the unfilled remainder of an immediate-or-cancel order', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 2));
    engine.place(limit(2, BUY, Number.MAX_SAFE_INTEGER, 5, { timeInForce: 'IOC' }));
    expect(statusesOf(events, 2)).toEqual(['OPEN', 'CANCELED:IMMEDIATE_OR_CANCEL']);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: 'order', filled: 2, remaining: 0 });
    expect(engine.depth()).toMatchObject({ bids: [], asks: [] });
  });

  it('does not match on a halted book but still cancels', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 2));
    engine.halt();
    expect(engine.place(limit(2, BUY, 100, 2))).toBe(false);
    expect(statusesOf(events, 2)).toEqual(['REJECTED:MARKET_HALTED']);
    expect(fillsOf(events)).toHaveLength(0);
    expect(engine.cancel(1, 'OPERATOR', 1)).toBe(true);
    engine.resume();
    expect(engine.place(limit(3, BUY, 100, 2))).toBe(true);
  });

  it.each([
    ['a duplicate id', limit(1, BUY, 90, 1), 'DUPLICATE_ID'],
    ['a zero quantity', limit(2, BUY, 90, 0), 'INVALID_QUANTITY'],
    ['a fractional quantity', limit(2, BUY, 90, 1.5), 'INVALID_QUANTITY'],
    ['a zero GTC price', limit(2, BUY, 0, 1), 'INVALID_PRICE'],
    ['a price above the largest tick', limit(2, BUY, MAX_PRICE_TICKS + 1n, 1), 'INVALID_PRICE'],
    ['a negative id', limit(-2, BUY, 90, 1), 'INVALID_ORDER'],
    ['a maker-only IOC', limit(2, BUY, 90, 1, { makerOnly: true, timeInForce: 'IOC' }), 'INVALID_ORDER'],
  ] as const)('rejects %s', (_name, order, reason) => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, SELL, 100, 1));
    const hash = engine.stateHash();
    expect(engine.place(order)).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'order', status: 'REJECTED', reason });
    expect(engine.stateHash()).toBe(hash);
  });

  it('numbers depth updates consecutively from 1, or from a recovered id', () => {
    const { engine, events } = recordingEngine({ lastUpdateId: 41 });
    engine.place(limit(1, SELL, 100, 2));
    engine.place(limit(2, SELL, 101, 2));
    engine.place(limit(3, BUY, 101, 3));
    engine.cancel(2, 'USER', 9);
    const ids = events.filter((event): event is DepthEvent => event.type === 'depth').map((event) => event.updateId);
    expect(ids).toEqual([42, 43, 44, 45, 46]);
    expect(engine.lastUpdateId).toBe(46);
  });

  it('emits one depth change per level touched by a sweep', () => {
    const { engine, events } = recordingEngine();
    for (let id = 1; id <= 5; id++) engine.place(limit(id, SELL, 100, 1));
    events.length = 0;
    engine.place(limit(9, BUY, 100, 4));
    expect(events.filter((event) => event.type === 'depth')).toEqual([
      { type: 'depth', side: SELL, price: 100n, quantity: 1, updateId: 6, time: 1_009 },
    ]);
  });

  it('cancels an order that would overflow its level total', () => {
    const { engine, events } = recordingEngine();
    engine.place(limit(1, BUY, 100, Number.MAX_SAFE_INTEGER - 1));
    engine.place(limit(2, BUY, 100, 2));
    expect(statusesOf(events, 2)).toEqual(['OPEN', 'CANCELED:LEVEL_FULL']);
    expect(engine.depth().bids).toEqual([[100n, Number.MAX_SAFE_INTEGER - 1]]);
  });

  it('applies commands as data, with the same result as the methods', () => {
    const direct = new MatchingEngine(() => {});
    const applied = new MatchingEngine(() => {});
    direct.place(limit(1, SELL, 100, 2));
    direct.halt();
    direct.resume();
    direct.cancel(1, 'USER', 5);
    applied.apply({ type: 'place', ...limit(1, SELL, 100, 2) });
    applied.apply({ type: 'halt', time: 2 });
    expect(applied.isHalted).toBe(true);
    applied.apply({ type: 'resume', time: 3 });
    applied.apply({ type: 'cancel', id: 1, reason: 'USER', time: 5 });
    expect(applied.stateHash()).toBe(direct.stateHash());
  });

  it('gives equal state hashes for equal histories and different ones otherwise', () => {
    const a = new MatchingEngine(() => {});
    const b = new MatchingEngine(() => {});
    const c = new MatchingEngine(() => {});
    for (const engine of [a, b]) {
      engine.place(limit(1, SELL, 100, 2));
      engine.place(limit(2, SELL, 100, 3));
    }
    c.place(limit(2, SELL, 100, 3));
    c.place(limit(1, SELL, 100, 2));
    expect(a.stateHash()).toBe(b.stateHash());
    expect(a.stateHash()).toMatch(/^[0-9a-f]{16}$/);
    // same levels, totals and update id; only the time priority differs
    expect(c.depth()).toEqual(a.depth());
    expect(c.stateHash()).not.toBe(a.stateHash());
  });
});
