import {
  LIVE_BOOKS_PAGE,
  LIVE_DEPTH_DIFF,
  LIVE_HISTORY,
  LIVE_LISTED_ORDER,
  LIVE_ORDER_CANCELED,
  LIVE_ORDER_CREATED,
  LIVE_SAVED_META,
} from '@dex/protocol/test-support/live-captures';
import { describe, expect, it } from 'vitest';
import { bookGrid } from './amounts.js';
import type { OrderHistory, OrderListItem, SavedOrder } from './order-types.js';
import { DepthBook } from './streams/depth-book.js';
import { historyEvents } from './streams/history-events.js';
import { isDepthDiff, isUserEvent, parseStreamMessage, type UserEvent } from './streams/messages.js';
import { OrderTracker } from './streams/order-tracker.js';
import type { BooksPage } from './types.js';
import { readBooksPage, readHistory, readOrderListItem, readSavedOrder } from './wire-compat.js';

/** A captured answer, typed as the reader takes it. */
const captured = <T>(value: unknown): T => value as T;

describe("the SDK on the live service's answers", () => {
  it('reads its books: raw lot sizes and minimum notionals, fine grids, string ids, "0" for no price', () => {
    const page = readBooksPage(captured<BooksPage>(LIVE_BOOKS_PAGE));
    const [traded, untraded] = page.orderbooks;
    expect(traded).toMatchObject({ lotSize: '10000000', minNotional: '15000000', quotePrice: '0.08594304708173912' });
    expect(untraded).toMatchObject({ quotePrice: '0', quotePrice24hPct: null });
    const grid = bookGrid(traded as NonNullable<typeof traded>);
    expect(grid.spec.lotSize).toBe(10_000_000n);
    expect(grid.minNotionalRaw).toBe(15_000_000n);
    expect(grid.stepValue).toEqual({ num: 1n, den: 100n });
  });

  it('applies its depth diffs, which carry no envelope, to a book from a snapshot', () => {
    const diff = parseStreamMessage(JSON.stringify(LIVE_DEPTH_DIFF));
    expect(isDepthDiff(diff)).toBe(true);
    const book = new DepthBook({
      orderbookId: '3',
      timestamp: 1_757_000_000_000,
      lastUpdateId: 40,
      bids: [['101.9', '2']],
      asks: [['102.2', '1']],
    });
    expect(book.apply(diff as Parameters<DepthBook['apply']>[0])).toBe(true);
    expect(book.asks()).toEqual([
      ['102.1', '3.696778'],
      ['102.2', '1'],
    ]);
    expect(book.bids()).toEqual([]);
    expect(book.lastUpdateId).toBe(43);
  });

  it("follows an order by its events' sequence, with the status their type leaves, once each", () => {
    const created = parseStreamMessage(JSON.stringify(LIVE_ORDER_CREATED));
    const canceled = parseStreamMessage(JSON.stringify(LIVE_ORDER_CANCELED));
    if (!isUserEvent(created) || !isUserEvent(canceled)) throw new Error('not user events');
    expect(created).toMatchObject({ orderId: '3494124', sequence: 1, status: 'ACTIVE', makerOnly: 1 });
    expect(canceled).toMatchObject({ sequence: 2, status: 'CANCELED', reason: 'USER' });
    const tracker = new OrderTracker();
    tracker.start([], 0);
    expect(tracker.accept(created)).toBe(true);
    expect([...tracker.orders().values()]).toEqual([{ orderId: 3494124, orderbookId: '3', status: 'ACTIVE', sequence: 1 }]);
    expect(tracker.accept(created)).toBe(false);
    expect(tracker.accept(canceled)).toBe(true);
    expect(tracker.accept(canceled)).toBe(false);
    expect(tracker.orders().size).toBe(0);
  });

  it('reads its order listing, history and save answer, whose ids are numbers in some and strings in others', () => {
    expect(readOrderListItem(captured<OrderListItem>(LIVE_LISTED_ORDER))).toMatchObject({ id: 3494124, status: 'ACTIVE' });
    const history = readHistory(captured<OrderHistory>(LIVE_HISTORY));
    const events: UserEvent[] = historyEvents(history);
    expect(events.map(({ type, sequence, status, eventId }) => [type, sequence, status, eventId])).toEqual([
      ['ORDER_CREATED', 1, 'ACTIVE', 7797743],
      ['ORDER_CANCELED', 2, 'CANCELED', 7797790],
    ]);
    expect(readSavedOrder(captured<SavedOrder>({ meta: LIVE_SAVED_META })).meta).toMatchObject({
      id: '3494124',
      orderbookId: '3',
    });
  });
});
