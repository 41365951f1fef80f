import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReferenceBook } from '../test-support/reference-book.js';
import type { EngineEvent } from './events.js';
import { MatchingEngine } from './matching-engine.js';
import { BUY, type EngineCommand, SELF_TRADE_PREVENTIONS, SELL, type Side } from './types.js';

/** Random flows around a mid price of 100, with cancels of earlier ids and the odd halt. */
const flow = fc
  .array(
    fc.oneof(
      {
        weight: 10,
        arbitrary: fc.record({
          kind: fc.constant('place' as const),
          side: fc.constantFrom<Side>(BUY, SELL),
          price: fc.bigInt({ min: 95n, max: 105n }),
          quantity: fc.integer({ min: 1, max: 20 }),
          ioc: fc.integer({ min: 0, max: 9 }).map((value) => value < 2),
          makerOnly: fc.integer({ min: 0, max: 9 }).map((value) => value === 0),
          takerOnce: fc.integer({ min: 0, max: 9 }).map((value) => value === 0),
          // A few owners, so that orders often meet their own; now and then none at all.
          owner: fc.constantFrom(undefined, 'a', 'b', 'c'),
          selfTradePrevention: fc.constantFrom(undefined, ...SELF_TRADE_PREVENTIONS),
        }),
      },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('halt' as const, 'resume' as const) }) },
    ),
    { minLength: 1, maxLength: 300 },
  )
  .map((steps) => {
    const commands: EngineCommand[] = [];
    let nextId = 1;
    steps.forEach((step, time) => {
      if (step.kind === 'place') {
        commands.push({
          type: 'place',
          id: nextId++,
          side: step.side,
          price: step.price,
          quantity: step.quantity,
          timeInForce: step.ioc && !step.makerOnly ? 'IOC' : 'GTC',
          makerOnly: step.makerOnly,
          takerOnce: step.takerOnce,
          ...(step.owner === undefined ? {} : { owner: step.owner }),
          ...(step.selfTradePrevention === undefined ? {} : { selfTradePrevention: step.selfTradePrevention }),
          time,
        });
      } else if (step.kind === 'cancel') {
        commands.push({ type: 'cancel', id: nextId > 1 ? 1 + (step.pick % (nextId - 1)) : 1, reason: 'USER', time });
      } else {
        commands.push({ type: step.kind, time });
      }
    });
    return commands;
  });

function run(commands: readonly EngineCommand[]): { engine: MatchingEngine; events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  const engine = new MatchingEngine((event) => events.push(event));
  for (const command of commands) engine.apply(command);
  return { engine, events };
}

describe('MatchingEngine invariants', () => {
  it('matches exactly like the simple reference book on random flows', () => {
    fc.assert(
      fc.property(flow, (commands) => {
        const events: EngineEvent[] = [];
        const engine = new MatchingEngine((event) => events.push(event));
        const reference = new ReferenceBook();
        for (const command of commands) {
          const accepted = engine.apply(command);
          switch (command.type) {
            case 'place':
              expect(accepted).toBe(reference.place(command) === 'ACCEPTED');
              break;
            case 'cancel':
              expect(accepted).toBe(reference.cancel(command.id, command.reason));
              break;
            default:
              reference.halted = command.type === 'halt';
          }
          expect(engine.depth().bids).toEqual(reference.depth(BUY));
          expect(engine.depth().asks).toEqual(reference.depth(SELL));
        }
        const fills = events.flatMap((event) =>
          event.type === 'fill'
            ? [{ makerId: event.makerId, takerId: event.takerId, price: event.price, quantity: event.quantity }]
            : [],
        );
        expect(fills).toEqual(reference.fills);
        const selfTrades = events.flatMap((event) =>
          event.type === 'order' && event.reason === 'SELF_TRADE' ? [event.orderId] : [],
        );
        expect(selfTrades).toEqual(reference.selfTrades);
      }),
      { numRuns: 300 },
    );
  });

  it('never leaves the book crossed at rest', () => {
    fc.assert(
      fc.property(flow, (commands) => {
        const engine = new MatchingEngine(() => {});
        for (const command of commands) {
          engine.apply(command);
          const bid = engine.bestBid();
          const ask = engine.bestAsk();
          if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
        }
      }),
    );
  });

  it('conserves quantity: no order fills beyond its size, and open + filled + cancelled = size', () => {
    fc.assert(
      fc.property(flow, (commands) => {
        const { engine, events } = run(commands);
        const size = new Map<number, number>();
        const filled = new Map<number, number>();
        const terminal = new Map<number, string>();
        for (const command of commands) if (command.type === 'place') size.set(command.id, command.quantity);
        for (const event of events) {
          if (event.type === 'fill') {
            expect(event.takerSide === BUY || event.takerSide === SELL).toBe(true);
            for (const id of [event.makerId, event.takerId]) filled.set(id, (filled.get(id) ?? 0) + event.quantity);
          } else if (event.type === 'order' && event.status !== 'OPEN' && event.status !== 'PARTIALLY_FILLED') {
            terminal.set(event.orderId, event.status);
            expect(event.filled).toBe(filled.get(event.orderId) ?? 0);
          }
        }
        for (const [id, quantity] of size) {
          const done = filled.get(id) ?? 0;
          expect(done).toBeLessThanOrEqual(quantity);
          const open = engine.getOrder(id);
          if (open) {
            expect(open.remaining).toBe(quantity - done);
            expect(terminal.has(id)).toBe(false);
          } else if (terminal.get(id) === 'FILLED') {
            expect(done).toBe(quantity);
          } else {
            expect(['CANCELED', 'REJECTED']).toContain(terminal.get(id));
          }
        }
      }),
    );
  });

  it('never fills an order against one of its own owner', () => {
    fc.assert(
      fc.property(flow, (commands) => {
        const owners = new Map<number, string | undefined>();
        for (const command of commands) if (command.type === 'place') owners.set(command.id, command.owner);
        for (const event of run(commands).events) {
          if (event.type !== 'fill') continue;
          const owner = owners.get(event.makerId);
          if (owner !== undefined) expect(owners.get(event.takerId)).not.toBe(owner);
        }
      }),
    );
  });

  it('keeps price priority: every fill trades at the best opposite price (time priority: see the reference test)', () => {
    fc.assert(
      fc.property(flow, (commands) => {
        const engine = new MatchingEngine((event) => {
          if (event.type !== 'fill') return;
          const best = event.takerSide === BUY ? engine.bestAsk() : engine.bestBid();
          // the level being consumed is still the best one while its fills are emitted
          if (best !== undefined) expect(event.price).toBe(best);
        });
        for (const command of commands) engine.apply(command);
      }),
    );
  });

  it('describes the book exactly through its depth events, with consecutive update ids', () => {
    fc.assert(
      fc.property(flow, (commands) => {
        const { engine, events } = run(commands);
        const local = [new Map<bigint, number>(), new Map<bigint, number>()];
        let lastUpdateId = 0;
        for (const event of events) {
          if (event.type !== 'depth') continue;
          expect(event.updateId).toBe(lastUpdateId + 1);
          lastUpdateId = event.updateId;
          const levels = local[event.side] as Map<bigint, number>;
          if (event.quantity === 0) levels.delete(event.price);
          else levels.set(event.price, event.quantity);
        }
        const sorted = (levels: Map<bigint, number>, side: Side) =>
          [...levels].sort((a, b) => ((side === BUY ? a[0] < b[0] : a[0] > b[0]) ? 1 : -1));
        expect(engine.depth()).toEqual({
          bids: sorted(local[BUY] as Map<bigint, number>, BUY),
          asks: sorted(local[SELL] as Map<bigint, number>, SELL),
          lastUpdateId,
        });
      }),
    );
  });

  it('replays the same commands to the same events and state hash', () => {
    fc.assert(
      fc.property(flow, (commands) => {
        const first = run(commands);
        const second = run(commands);
        expect(second.events).toEqual(first.events);
        expect(second.engine.stateHash()).toBe(first.engine.stateHash());
      }),
      { numRuns: 50 },
    );
  });
});
