import { describe, expect, it } from 'vitest';
import type { CancelResult, FeeRates, OrderHistory, OrderListItem, SavedOrder } from './order-types.js';
import { parseStreamMessage } from './streams/messages.js';
import type { DepthSnapshot, OrderbookItem } from './types.js';
import {
  readBook,
  readCancelResult,
  readDepth,
  readFees,
  readHistory,
  readOrderListItem,
  readSavedOrder,
} from './wire-compat.js';

/** A value as an older server sent it, typed as the current shape for the reader. */
const older = <T>(value: unknown): T => value as T;

const MS = Date.UTC(2026, 10, 22, 12, 0, 0);
const ISO = '2026-11-22T12:00:00.000Z';

describe('reading answers of older servers', () => {
  it('reads a book with a numeric 24-hour change and unix-ms times', () => {
    const book = readBook(older<OrderbookItem>({ id: 1, quotePrice24hPct: -0.39, createdAt: MS, updatedAt: MS }));
    expect(book).toEqual({ id: 1, quotePrice24hPct: '-0.3900', createdAt: ISO, updatedAt: ISO });
  });

  it('reads a book with display lot size and minimum notional, and null prices before any trade, as now', () => {
    const book = readBook(
      older<OrderbookItem>({
        baseTokenDecimals: 8,
        quoteTokenDecimals: 6,
        tickStep: '0.00001',
        sizeStep: '0.1',
        lotSize: '0.1',
        minNotional: '0.1',
        quotePrice: null,
        quotePrice24hHigh: null,
        quotePrice24hLow: null,
      }),
    );
    expect(book).toMatchObject({
      lotSize: '10000000',
      minNotional: '100000',
      quotePrice: '0',
      quotePrice24hHigh: '0',
      quotePrice24hLow: '0',
    });
  });

  it('reads depth with a numeric book id and spread', () => {
    expect(readDepth(older<DepthSnapshot>({ orderbookId: 2, spreadPercent: 0.8 }))).toEqual({
      orderbookId: '2',
      spreadPercent: '0.8000',
    });
    expect(readDepth(older<DepthSnapshot>({ orderbookId: 2, spreadPercent: null }))).toMatchObject({ spreadPercent: null });
  });

  it('reads a saved order with numeric ids, OPEN and a unix-ms time', () => {
    const saved = readSavedOrder(older<SavedOrder>({ meta: { id: 281, orderbookId: 1, status: 'OPEN', createdAt: MS } }));
    expect(saved.meta).toEqual({ id: '281', orderbookId: '1', status: 'ACTIVE', createdAt: ISO });
  });

  it('reads skips given as objects into ids and their reasons', () => {
    const result = readCancelResult(
      older<CancelResult>({ status: 'PENDING', accepted: [1], skipped: [{ orderId: 9, reason: 'NOT_FOUND' }] }),
    );
    expect(result).toEqual({
      status: 'PENDING',
      accepted: [1],
      skipped: [9],
      skippedDetails: [{ orderId: 9, reason: 'NOT_FOUND' }],
    });
  });

  it('reads a listed order with numbers where strings are now', () => {
    const order = readOrderListItem(
      older<OrderListItem>({
        id: 5,
        orderbookId: 1,
        createdAt: MS,
        updatedAt: MS,
        percentFilled: 33.33,
        status: 'OPEN',
        deadline: 1_789_838_732,
      }),
    );
    expect(order).toEqual({
      id: 5,
      orderbookId: '1',
      createdAt: ISO,
      updatedAt: ISO,
      percentFilled: '33.33',
      status: 'ACTIVE',
      deadline: '1789838732',
    });
  });

  it('reads a history with numeric book and event ids', () => {
    const history = readHistory(older<OrderHistory>({ orderId: 5, orderbookId: 1, total: 1, events: [{ id: 7 }] }));
    expect(history).toEqual({ orderId: 5, orderbookId: '1', total: 1, events: [{ id: '7' }] });
  });

  it('reads a numeric market id as the 32-byte id current servers give', () => {
    expect(readFees(older<FeeRates>({ marketId: 10 })).marketId).toBe(`0x${'a'.padStart(64, '0')}`);
  });

  it('leaves answers of current servers as they are', () => {
    const current = { id: 1, quotePrice24hPct: '0.4000', createdAt: ISO, updatedAt: ISO } as unknown as OrderbookItem;
    expect(readBook(current)).toEqual(current);
    const saved = { meta: { id: '3', orderbookId: '1', status: 'PARTIALLY_FILLED', createdAt: ISO, updatedAt: ISO } };
    expect(readSavedOrder(older<SavedOrder>(saved))).toEqual(saved);
  });
});

describe('reading stream messages of older servers', () => {
  it('gives depth diffs a string book id', () => {
    const diff = parseStreamMessage(
      JSON.stringify({ seq: 2, type: 'DEPTH_DIFF', orderbookId: 1, firstUpdateId: 3, finalUpdateId: 4, bids: [], asks: [] }),
    );
    expect(diff).toMatchObject({ orderbookId: '1' });
  });

  it('gives user events string ids and ACTIVE for OPEN', () => {
    const event = parseStreamMessage(
      JSON.stringify({
        seq: 3,
        type: 'ORDER_CREATED',
        eventId: 10,
        orderId: 5,
        orderbookId: 1,
        timestamp: 1_000,
        status: 'OPEN',
        filledAmount: '0',
      }),
    );
    expect(event).toMatchObject({ orderId: '5', orderbookId: '1', status: 'ACTIVE' });
  });

  it('refuses an id that is neither a whole number nor its decimal text', () => {
    const text = JSON.stringify({
      seq: 3,
      type: 'ORDER_FILLED',
      eventId: 1,
      orderId: '0x5',
      orderbookId: '1',
      timestamp: 1_000,
      status: 'FILLED',
    });
    expect(() => parseStreamMessage(text)).toThrow(expect.objectContaining({ details: expect.stringMatching(/malformed/) }));
  });
});
