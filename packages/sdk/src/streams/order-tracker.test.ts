import { formatDecimal } from '@dex/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HistoryEventType, OrderHistory, OrderStatus } from '../order-types.js';
import { historyEvents } from './history-events.js';
import type { UserEvent, UserEventType } from './messages.js';
import { OrderTracker, type TrackedOrder } from './order-tracker.js';

/** How one order lives: fills (in steps of 0.1) after its creation, then maybe an end. */
interface Life {
  readonly fills: readonly number[];
  readonly end: 'open' | 'CANCELED' | 'EXPIRED' | 'FILLED' | 'REJECTED';
}

const life: fc.Arbitrary<Life> = fc
  .record({
    fills: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 3 }),
    end: fc.constantFrom('open', 'CANCELED', 'EXPIRED', 'FILLED', 'REJECTED'),
  })
  .map(({ fills, end }) => ({
    fills: end === 'REJECTED' ? [] : fills,
    // FILLED is the last fill itself, so it needs one.
    end: end === 'FILLED' && fills.length === 0 ? 'open' : end,
  }));

const HISTORY_TYPE: Record<UserEventType, HistoryEventType> = {
  ORDER_CREATED: 'CREATED',
  ORDER_PARTIALLY_FILLED: 'PARTIAL_FILL',
  ORDER_FILLED: 'FILLED',
  ORDER_FILL_REVERTED: 'FILL_REVERTED',
  ORDER_CANCELED: 'CANCELED',
  ORDER_EXPIRED: 'EXPIRED',
  ORDER_REJECTED: 'REJECTED',
};

/**
 * What a server sends of an event: this service now (event ids and per-order sequences), older
 * versions of it (event ids only), and the live service (sequences only, no filled amount).
 */
type Server = 'current' | 'ids' | 'live';

/** The events of one order, each with its sequence, without ids yet. */
function eventsOfLife(orderId: number, { fills, end }: Life): Omit<UserEvent, 'eventId'>[] {
  const event = (type: UserEventType, status: OrderStatus, filled: number, fill?: number): Omit<UserEvent, 'eventId'> => ({
    type,
    orderId: String(orderId),
    orderbookId: '1',
    timestamp: 0,
    status,
    reason: null,
    filledAmount: formatDecimal(BigInt(filled), 1),
    txHash: null,
    fill:
      fill === undefined
        ? null
        : {
            tradeId: 0,
            role: 'maker',
            price: '1',
            amountBase: formatDecimal(BigInt(fill), 1),
            baseAmount: '0',
            quoteAmount: '0',
          },
  });
  const events = [event('ORDER_CREATED', 'ACTIVE', 0)];
  let filled = 0;
  fills.forEach((amount, index) => {
    filled += amount;
    const last = index === fills.length - 1 && end === 'FILLED';
    events.push(event(last ? 'ORDER_FILLED' : 'ORDER_PARTIALLY_FILLED', last ? 'FILLED' : 'PARTIALLY_FILLED', filled, amount));
  });
  if (end === 'CANCELED' || end === 'EXPIRED' || end === 'REJECTED') events.push(event(`ORDER_${end}`, end, filled));
  return events.map((each, index) => ({ ...each, sequence: index + 1 }));
}

/** An event as a server sends it. */
function sentBy(server: Server, event: UserEvent): UserEvent {
  if (server === 'current') return event;
  const { sequence, eventId, filledAmount, ...rest } = event;
  return (server === 'ids' ? { ...rest, eventId, filledAmount } : { ...rest, sequence }) as UserEvent;
}

/**
 * An account's orders living side by side: their events interleaved, with increasing ids that other
 * accounts' events leave gaps in (the ids of this service; the live service's events carry none).
 */
const account = fc
  .record({
    lives: fc.array(life, { minLength: 1, maxLength: 5 }),
    picks: fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
    gaps: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 30, maxLength: 30 }),
  })
  .map(({ lives, picks, gaps }) => {
    const queues = lives.map((each, index) => eventsOfLife(index + 1, each));
    const events: UserEvent[] = [];
    let id = 0;
    for (let turn = 0; queues.some((queue) => queue.length > 0); turn++) {
      const waiting = queues.filter((queue) => queue.length > 0);
      const queue = waiting[(picks[turn % picks.length] as number) % waiting.length] as Omit<UserEvent, 'eventId'>[];
      id += gaps[turn % gaps.length] as number;
      events.push({ ...(queue.shift() as Omit<UserEvent, 'eventId'>), eventId: id });
    }
    return events;
  });

/** The open orders after the first `count` events, as a server's listing gives them. */
function openAfter(events: readonly UserEvent[], count: number, server: Server = 'current'): Map<number, TrackedOrder> {
  const open = new Map<number, TrackedOrder>();
  for (const { orderId: text, orderbookId, status, filledAmount, sequence } of events.slice(0, count)) {
    const orderId = Number(text);
    if (status !== 'ACTIVE' && status !== 'PARTIALLY_FILLED') open.delete(orderId);
    else if (server === 'live') open.set(orderId, { orderId, orderbookId, status });
    else open.set(orderId, { orderId, orderbookId, status, filledAmount, ...(server === 'current' ? { sequence } : {}) });
  }
  return open;
}

/** The last event id among the first `count` events; 0 for none. */
const idAfter = (events: readonly UserEvent[], count: number) =>
  count === 0 ? 0 : ((events[count - 1] as UserEvent).eventId ?? 0);

/** Sorted positions `a <= b <= c` within `0..length`. */
const positions = (length: number, seeds: readonly number[]) => seeds.map((seed) => seed % (length + 1)).sort((x, y) => x - y);

/** An order's history as the server gives it: the events of the order among the first `count`. */
function historyOf(events: readonly UserEvent[], orderId: number, count: number, server: Server): OrderHistory {
  const own = events.slice(0, count).filter((event) => event.orderId === String(orderId));
  return {
    orderId,
    orderbookId: '1',
    total: own.length,
    page: 1,
    limit: 1_000,
    events: own.map(({ eventId, sequence, type, timestamp, txHash, reason, fill }) => ({
      id: String(eventId),
      ...(server === 'current' ? { sequence } : {}),
      type: HISTORY_TYPE[type],
      timestamp,
      txHash: txHash ?? null,
      reason: reason ?? null,
      fill: fill ?? null,
      htsResponseCode: null,
    })) as OrderHistory['events'],
  };
}

/** The open orders by id, with only what every server tells: book and status. */
const statuses = (orders: ReadonlyMap<number, TrackedOrder>) =>
  [...orders].map(([id, { status }]) => [id, status]).sort(([a], [b]) => Number(a) - Number(b));

describe('OrderTracker', () => {
  it.each<Server>(['current', 'ids'])(
    'after a first listing, tells each event the listing does not reflect once, and ends with the open orders (%s server)',
    (server) => {
      fc.assert(
        fc.property(account, fc.tuple(fc.nat(), fc.nat(), fc.nat()), (events, seeds) => {
          // The stream buffers from `opened`; the listing reads its lastUpdateId after `listedId`
          // events and its orders after `listed` (a write can land in between).
          const [opened, listedId, listed] = positions(events.length, seeds) as [number, number, number];
          const tracker = new OrderTracker();
          tracker.start([...openAfter(events, listed, server).values()], idAfter(events, listedId));
          const sent = events.map((event) => sentBy(server, event));
          const told = sent.slice(opened).filter((event) => tracker.accept(event));

          const openAtListing = openAfter(events, listed);
          const unreflected = sent.filter(
            (event, index) => index >= listed || (index >= listedId && !openAtListing.has(Number(event.orderId))),
          );
          expect(told).toEqual(unreflected);
          expect(statuses(tracker.orders())).toEqual(statuses(openAfter(events, events.length)));
        }),
      );
    },
  );

  it('after a first listing from a server without event ids (the live service), tells every event the listing does not reflect, and ends with the open orders', () => {
    fc.assert(
      fc.property(account, fc.tuple(fc.nat(), fc.nat()), (events, seeds) => {
        const [opened, listed] = positions(events.length, seeds) as [number, number];
        const tracker = new OrderTracker();
        tracker.start([...openAfter(events, listed, 'live').values()], 0);
        const sent = events.map((event) => sentBy('live', event));
        const told = new Set(sent.slice(opened).filter((event) => tracker.accept(event)));
        // At least once: without ids, the first event of a listed order the listing already shows may be told again.
        for (const event of sent.slice(listed)) expect(told.has(event)).toBe(true);
        expect(statuses(tracker.orders())).toEqual(statuses(openAfter(events, events.length)));
      }),
    );
  });

  it.each<Server>(['current', 'ids'])(
    'after a reconnect, tells every missed event of the orders it held or the listing shows, once and in order (%s server)',
    (server) => {
      fc.assert(
        fc.property(account, fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat(), fc.nat()), (events, seeds) => {
          // Live until `lost`; the new stream buffers from `opened`; the listing as above; histories read after `read` events.
          const [lost, opened, listedId, listed, read] = positions(events.length, seeds) as [
            number,
            number,
            number,
            number,
            number,
          ];
          const sent = events.map((event) => sentBy(server, event));
          const tracker = new OrderTracker();
          tracker.start([], 0);
          const told = sent.slice(0, lost).filter((event) => tracker.accept(event));
          const held = openAfter(events, lost);

          const listing = [...openAfter(events, listed, server).values()];
          const moved = new Set(tracker.movedIn(listing));
          const replayed = [...moved].flatMap((orderId) => historyEvents(historyOf(events, orderId, read, server)));
          const buffered = sent.slice(opened);
          for (const event of [...buffered, ...replayed].sort((a, b) => (a.eventId ?? 0) - (b.eventId ?? 0))) {
            if (tracker.accept(event)) told.push(event);
          }
          tracker.advance(idAfter(events, listedId));

          const listedIds = new Set(listing.map((order) => order.orderId));
          const seen = (event: UserEvent, index: number) =>
            index < lost || held.has(Number(event.orderId)) || listedIds.has(Number(event.orderId)) || index >= opened;
          // Told once each, in order: a replayed copy stands for the event it copies.
          expect(told.map(({ eventId }) => eventId)).toEqual(events.filter(seen).map(({ eventId }) => eventId));
          expect(statuses(tracker.orders())).toEqual(statuses(openAfter(events, events.length)));
        }),
      );
    },
  );

  it("tells each event the listing does not reflect once when orders' events interleave out of id order", () => {
    fc.assert(
      fc.property(
        account,
        fc.tuple(fc.nat(), fc.nat()),
        fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        (events, seeds, picks) => {
          // Books on different engines publish on their own: each order's events arrive in order, the orders' interleaved anyhow.
          const byOrder = new Map<string, UserEvent[]>();
          for (const event of events) byOrder.set(event.orderId, [...(byOrder.get(event.orderId) ?? []), event]);
          const queues = [...byOrder.values()];
          const arrived: UserEvent[] = [];
          for (let turn = 0; queues.some((queue) => queue.length > 0); turn++) {
            const waiting = queues.filter((queue) => queue.length > 0);
            arrived.push(waiting[(picks[turn % picks.length] as number) % waiting.length]?.shift() as UserEvent);
          }
          const [listedId, listed] = positions(events.length, seeds) as [number, number];
          const tracker = new OrderTracker();
          tracker.start([...openAfter(events, listed, 'ids').values()], idAfter(events, listedId));
          const told = arrived.map((event) => sentBy('ids', event)).filter((event) => tracker.accept(event));

          const openAtListing = openAfter(events, listed);
          const unreflected = new Set(
            events
              .filter((event, index) => index >= listed || (index >= listedId && !openAtListing.has(Number(event.orderId))))
              .map(({ eventId }) => eventId),
          );
          expect(told.map(({ eventId }) => eventId)).toEqual(
            arrived.filter((event) => unreflected.has(event.eventId)).map(({ eventId }) => eventId),
          );
          expect(statuses(tracker.orders())).toEqual(statuses(openAfter(events, events.length)));
        },
      ),
    );
  });

  it('takes an event that skips a number of its order as lost events: a gap to resync from', () => {
    const tracker = new OrderTracker();
    tracker.start([{ orderId: 4, orderbookId: '1', status: 'ACTIVE', sequence: 1 }], 0);
    const event = { orderId: '4', orderbookId: '1', timestamp: 0, status: 'CANCELED', type: 'ORDER_CANCELED' } as const;
    expect(() => tracker.accept({ ...event, sequence: 3 })).toThrow(expect.objectContaining({ failure: 'seq-gap' }));
    expect(tracker.accept({ ...event, sequence: 2 })).toBe(true);
  });

  it("refuses a late copy of an ended order's event, so the order does not open again", () => {
    const tracker = new OrderTracker();
    tracker.start([], 0);
    const base = { orderId: '9', orderbookId: '1', reason: null, txHash: null, fill: null };
    const created = {
      ...base,
      type: 'ORDER_CREATED',
      eventId: 3,
      timestamp: 1_000,
      status: 'ACTIVE',
      filledAmount: '0',
    } as const;
    expect(tracker.accept(created)).toBe(true);
    expect(
      tracker.accept({ ...base, type: 'ORDER_CANCELED', eventId: 5, timestamp: 2_000, status: 'CANCELED', filledAmount: '0' }),
    ).toBe(true);
    // Another order's event with a higher id came first; this one is still news.
    expect(
      tracker.accept({
        ...base,
        orderId: '8',
        type: 'ORDER_CREATED',
        eventId: 4,
        timestamp: 2_000,
        status: 'ACTIVE',
        filledAmount: '0',
      }),
    ).toBe(true);
    expect(tracker.accept(created)).toBe(false);
    expect([...tracker.orders().keys()]).toEqual([8]);
    tracker.advance(5);
    expect(tracker.accept(created)).toBe(false);
  });

  it('reads an order history as the stream would have told it', () => {
    const history: OrderHistory = {
      orderId: 7,
      orderbookId: '2',
      total: 3,
      page: 1,
      limit: 100,
      events: [
        { id: '10', sequence: 1, type: 'CREATED', timestamp: 1, txHash: null, reason: null, fill: null, htsResponseCode: null },
        {
          id: '12',
          sequence: 2,
          type: 'PARTIAL_FILL',
          timestamp: 2,
          txHash: '0xab',
          reason: null,
          fill: { tradeId: 3, role: 'taker', price: '0.25', amountBase: '1.5', baseAmount: '150000000', quoteAmount: '375000' },
          htsResponseCode: null,
        },
        {
          id: '15',
          sequence: 3,
          type: 'CANCELED',
          timestamp: 3,
          txHash: null,
          reason: 'USER',
          fill: null,
          htsResponseCode: null,
        },
      ],
    };
    expect(
      historyEvents(history).map(({ type, eventId, status, filledAmount, reason }) => [
        type,
        eventId,
        status,
        filledAmount,
        reason,
      ]),
    ).toEqual([
      ['ORDER_CREATED', 10, 'ACTIVE', '0', null],
      ['ORDER_PARTIALLY_FILLED', 12, 'PARTIALLY_FILLED', '1.5', null],
      ['ORDER_CANCELED', 15, 'CANCELED', '1.5', 'USER'],
    ]);
  });

  it('reads a reverted fill from a history: the filled amount falls and a filled order is open again', () => {
    const fill = (amountBase: string) => ({
      tradeId: 3,
      role: 'maker' as const,
      price: '0.25',
      amountBase,
      baseAmount: '0',
      quoteAmount: '0',
    });
    const event = (id: string, type: HistoryEventType, extra: Partial<OrderHistory['events'][number]> = {}) => ({
      id,
      type,
      sequence: Number(id) - 9,
      timestamp: 1,
      txHash: null,
      reason: null,
      fill: null,
      htsResponseCode: null,
      ...extra,
    });
    const history: OrderHistory = {
      orderId: 7,
      orderbookId: '2',
      total: 5,
      page: 1,
      limit: 100,
      events: [
        event('10', 'CREATED'),
        event('11', 'PARTIAL_FILL', { fill: fill('1') }),
        event('12', 'FILLED', { fill: fill('2') }),
        event('14', 'FILL_REVERTED', { reason: 'INSUFFICIENT_FUNDS', fill: fill('2') }),
        event('15', 'CANCELED', { reason: 'SETTLEMENT_FAILED' }),
        event('16', 'FILL_REVERTED', { reason: 'NONCE_FLOOR', fill: fill('1') }),
      ],
    };
    expect(historyEvents(history).map(({ type, status, filledAmount }) => [type, status, filledAmount])).toEqual([
      ['ORDER_CREATED', 'ACTIVE', '0'],
      ['ORDER_PARTIALLY_FILLED', 'PARTIALLY_FILLED', '1'],
      ['ORDER_FILLED', 'FILLED', '3'],
      ['ORDER_FILL_REVERTED', 'PARTIALLY_FILLED', '1'],
      ['ORDER_CANCELED', 'CANCELED', '1'],
      ['ORDER_FILL_REVERTED', 'CANCELED', '0'],
    ]);
  });

  it('tells a reverted fill though the filled amount falls, and tracks the order it opens again', () => {
    const tracker = new OrderTracker();
    tracker.start([{ orderId: 4, orderbookId: '1', status: 'PARTIALLY_FILLED', filledAmount: '2' }], 20);
    const base = { orderbookId: '1', timestamp: 0, reason: null, txHash: null, fill: null };
    expect(
      tracker.accept({ ...base, type: 'ORDER_FILL_REVERTED', eventId: 21, orderId: '4', status: 'ACTIVE', filledAmount: '0' }),
    ).toBe(true);
    expect(tracker.orders().get(4)).toMatchObject({ status: 'ACTIVE', filledAmount: '0' });
    // Order 5 had filled (and left the tracker) before the listing; its fill is given back after it.
    expect(
      tracker.accept({
        ...base,
        type: 'ORDER_FILL_REVERTED',
        eventId: 22,
        orderId: '5',
        status: 'PARTIALLY_FILLED',
        filledAmount: '1',
      }),
    ).toBe(true);
    expect(tracker.orders().get(5)).toMatchObject({ status: 'PARTIALLY_FILLED', filledAmount: '1' });
    // The same revert again (a replayed history) is not news.
    expect(
      tracker.accept({ ...base, type: 'ORDER_FILL_REVERTED', eventId: 21, orderId: '4', status: 'ACTIVE', filledAmount: '0' }),
    ).toBe(false);
    // A listing that shows an order's fill given back names it as moved.
    expect(tracker.movedIn([{ orderId: 4, orderbookId: '1', status: 'ACTIVE', filledAmount: '0' }])).toEqual([5]);
    expect(tracker.movedIn([{ orderId: 5, orderbookId: '1', status: 'ACTIVE', filledAmount: '0' }])).toEqual([4, 5]);
  });
});
