import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PRICE_TICKS } from '../grid.js';
import { limit, recordingEngine } from '../test-support/engine-fixtures.js';
import type { OpenOrder } from './book-views.js';
import type { EngineEvent } from './events.js';
import type { MatchingEngine } from './matching-engine.js';
import { BUY, type EngineCommand, SELL, type Side } from './types.js';

type Step =
  | {
      readonly kind: 'place';
      readonly side: Side;
      readonly price: bigint;
      readonly quantity: number;
      readonly ioc: boolean;
      readonly makerOnly: boolean;
      readonly takerOnce: boolean;
    }
  | { readonly kind: 'cancel'; readonly pick: number }
  | { readonly kind: 'halt' | 'resume' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      side: fc.constantFrom<Side>(BUY, SELL),
      price: fc.bigInt({ min: 90n, max: 110n }),
      quantity: fc.integer({ min: 1, max: 25 }),
      ioc: fc.integer({ min: 0, max: 9 }).map((draw) => draw < 2),
      makerOnly: fc.integer({ min: 0, max: 9 }).map((draw) => draw === 0),
      takerOnce: fc.integer({ min: 0, max: 9 }).map((draw) => draw === 0),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('halt' as const, 'resume' as const) }) },
);

/** Turns steps into commands with increasing ids and times; cancels pick one of the ids placed so far. */
function toCommands(steps: readonly Step[], firstId: number, firstTime: number): EngineCommand[] {
  const commands: EngineCommand[] = [];
  let nextId = firstId;
  steps.forEach((draw, index) => {
    const time = firstTime + index;
    if (draw.kind === 'place') {
      commands.push({
        type: 'place',
        id: nextId++,
        side: draw.side,
        price: draw.price,
        quantity: draw.quantity,
        timeInForce: draw.ioc && !draw.makerOnly ? 'IOC' : 'GTC',
        makerOnly: draw.makerOnly,
        takerOnce: draw.takerOnce,
        time,
      });
    } else if (draw.kind === 'cancel') {
      commands.push({ type: 'cancel', id: 1 + (draw.pick % Math.max(1, nextId - 1)), reason: 'USER', time });
    } else {
      commands.push({ type: draw.kind, time });
    }
  });
  return commands;
}

const scenario = fc.record({
  history: fc.array(step, { minLength: 1, maxLength: 250 }),
  next: fc.array(step, { minLength: 1, maxLength: 5 }),
});

/** Ids whose last order event left them on the book (OPEN or PARTIALLY_FILLED), in id order. */
function restingIds(events: readonly EngineEvent[]): number[] {
  const last = new Map<number, string>();
  for (const event of events) if (event.type === 'order') last.set(event.orderId, event.status);
  return [...last]
    .filter(([, status]) => status === 'OPEN' || status === 'PARTIALLY_FILLED')
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

function openOrder(engine: MatchingEngine, id: number): OpenOrder {
  const order = engine.getOrder(id);
  if (order === undefined) throw new Error(`order ${id} should be open`);
  return order;
}

describe('MatchingEngine.restore', () => {
  it('rebuilds from the resting orders (oldest first) a book that hashes, shows and matches exactly like the original', () => {
    fc.assert(
      fc.property(scenario, ({ history, next }) => {
        const original = recordingEngine();
        const commands = toCommands(history, 1, 0);
        for (const command of commands) original.engine.apply(command);
        const resting = restingIds(original.events);
        expect(original.engine.openOrderCount).toBe(resting.length);

        const restored = recordingEngine({ lastUpdateId: original.engine.lastUpdateId, halted: original.engine.isHalted });
        for (const id of resting) restored.engine.restore(openOrder(original.engine, id));

        expect(restored.events).toEqual([]);
        expect(restored.engine.stateHash()).toBe(original.engine.stateHash());
        expect(restored.engine.depth()).toEqual(original.engine.depth());
        expect(restored.engine.openOrderCount).toBe(original.engine.openOrderCount);
        for (const id of resting) expect(restored.engine.getOrder(id)).toEqual(original.engine.getOrder(id));

        const placedSoFar = commands.filter((command) => command.type === 'place').length;
        const followUp = toCommands(next, placedSoFar + 1, history.length);
        original.events.length = 0;
        for (const command of followUp) {
          expect(restored.engine.apply(command)).toBe(original.engine.apply(command));
        }
        expect(restored.events).toEqual(original.events);
        expect(restored.engine.stateHash()).toBe(original.engine.stateHash());
      }),
      { numRuns: 300 },
    );
  });

  it('puts an order back without events and without moving the update ids', () => {
    const { engine, events } = recordingEngine({ lastUpdateId: 41 });
    engine.restore({ id: 7, side: SELL, price: 100n, quantity: 10, remaining: 4 });
    expect(events).toEqual([]);
    expect(engine.depth()).toEqual({ bids: [], asks: [[100n, 4]], lastUpdateId: 41 });
    expect(engine.getOrder(7)).toEqual({ id: 7, side: SELL, price: 100n, quantity: 10, remaining: 4 });
    engine.place(limit(8, BUY, 100, 4));
    expect(events.filter((event) => event.type === 'depth')).toEqual([
      { type: 'depth', side: SELL, price: 100n, quantity: 0, updateId: 42, time: 1_008 },
    ]);
    expect(events).toContainEqual({
      type: 'order',
      orderId: 7,
      status: 'FILLED',
      side: SELL,
      price: 100n,
      filled: 10,
      remaining: 0,
      reason: null,
      time: 1_008,
    });
  });

  it('keeps restored orders of one price in the order they were restored', () => {
    const { engine, events } = recordingEngine();
    engine.restore({ id: 3, side: BUY, price: 100n, quantity: 5, remaining: 5 });
    engine.restore({ id: 9, side: BUY, price: 100n, quantity: 5, remaining: 2 });
    engine.place(limit(10, SELL, 100, 6));
    const fills = events.flatMap((event) => (event.type === 'fill' ? [[event.makerId, event.quantity]] : []));
    expect(fills).toEqual([
      [3, 5],
      [9, 1],
    ]);
  });

  describe('refuses an order that could not have been resting, leaving the book as it was', () => {
    function bookWithSpread() {
      const book = recordingEngine();
      book.engine.restore({ id: 1, side: BUY, price: 99n, quantity: 5, remaining: 5 });
      book.engine.restore({ id: 2, side: SELL, price: 101n, quantity: 5, remaining: 5 });
      return book;
    }

    it.each<[string, OpenOrder]>([
      ['a bid at the best ask', { id: 3, side: BUY, price: 101n, quantity: 5, remaining: 5 }],
      ['a bid above the best ask', { id: 3, side: BUY, price: 150n, quantity: 5, remaining: 5 }],
      ['an ask at the best bid', { id: 3, side: SELL, price: 99n, quantity: 5, remaining: 5 }],
      ['an ask below the best bid', { id: 3, side: SELL, price: 50n, quantity: 5, remaining: 5 }],
      ['a duplicate id on the other side', { id: 1, side: SELL, price: 120n, quantity: 5, remaining: 5 }],
      ['a duplicate id at the same level', { id: 2, side: SELL, price: 101n, quantity: 5, remaining: 5 }],
      ['a remaining of 0', { id: 3, side: BUY, price: 98n, quantity: 5, remaining: 0 }],
      ['a remaining above the quantity', { id: 3, side: BUY, price: 98n, quantity: 5, remaining: 6 }],
      ['a negative id', { id: -1, side: BUY, price: 98n, quantity: 5, remaining: 5 }],
      ['a price of 0', { id: 3, side: BUY, price: 0n, quantity: 5, remaining: 5 }],
      ['a price above the largest tick', { id: 3, side: SELL, price: MAX_PRICE_TICKS + 1n, quantity: 5, remaining: 5 }],
    ])('%s', (_name, order) => {
      const { engine, events } = bookWithSpread();
      const before = engine.stateHash();
      expect(() => engine.restore(order)).toThrow(/cannot rest/);
      expect(engine.stateHash()).toBe(before);
      expect(engine.openOrderCount).toBe(2);
      expect(events).toEqual([]);
    });

    it('an order that would overflow its price level', () => {
      const { engine } = recordingEngine();
      engine.restore({ id: 1, side: SELL, price: 100n, quantity: Number.MAX_SAFE_INTEGER, remaining: Number.MAX_SAFE_INTEGER });
      const before = engine.stateHash();
      expect(() => engine.restore({ id: 2, side: SELL, price: 100n, quantity: 1, remaining: 1 })).toThrow(/overflows/);
      expect(engine.stateHash()).toBe(before);
      expect(engine.getOrder(2)).toBeUndefined();
    });
  });

  it('accepts an ask at the best ask and a bid at the best bid, which do not cross', () => {
    const { engine } = recordingEngine();
    engine.restore({ id: 1, side: BUY, price: 99n, quantity: 5, remaining: 5 });
    engine.restore({ id: 2, side: SELL, price: 101n, quantity: 5, remaining: 5 });
    engine.restore({ id: 3, side: SELL, price: 101n, quantity: 5, remaining: 3 });
    engine.restore({ id: 4, side: BUY, price: 100n, quantity: 5, remaining: 1 });
    expect(engine.depth()).toEqual({
      bids: [
        [100n, 1],
        [99n, 5],
      ],
      asks: [[101n, 8]],
      lastUpdateId: 0,
    });
  });
});
