import type { HistoryEvent, OrderListItem } from '@dex/protocol';
import { AppError } from '../../domain/errors.js';
import type { OrderState } from '../../domain/orders/order-records.js';
import { STATUS_FILTER_WORDS, stateOfStatusWord } from '../../domain/orders/wire-status.js';
import { offsetOf, parseCount, single } from '../../domain/query-values.js';
import type { Store } from '../../ports/store/ports.js';
import type { MarketRegistry } from '../markets/market-registry.js';
import { historyEventOf, listItemOf } from './order-views.js';

const ORDER_ID = /^[1-9][0-9]{0,15}$/;
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
const DEFAULT_HISTORY_LIMIT = 100;
const MAX_HISTORY_LIMIT = 1_000;

type Query = Record<string, string | string[] | undefined>;

export interface OrdersPage {
  orders: OrderListItem[];
  total: number;
  page: number;
  limit: number;
  lastUpdateId: number;
}

export interface OrderHistory {
  orderId: number;
  orderbookId: string;
  events: HistoryEvent[];
  total: number;
  page: number;
  limit: number;
}

/** `status`: one status word or a comma-separated list (live words or the older ones); absent means all. */
function parseStatuses(value: string | undefined): OrderState[] | null {
  if (value === undefined || value === '') return null;
  return value.split(',').map((part) => {
    const state = stateOfStatusWord(part);
    if (state === undefined) {
      throw new AppError('VALIDATION_FAILED', `status must be one or more of ${STATUS_FILTER_WORDS.join(', ')}`);
    }
    return state;
  });
}

function pageOf(query: Query, defaultLimit: number, maxLimit: number): { page: number; limit: number } {
  return {
    page: parseCount(single(query.page, 'page'), 1),
    limit: parseCount(single(query.limit, 'limit'), defaultLimit, maxLimit),
  };
}

/** The account's orders and their history: what a client recovers its state from after a reconnect. */
export class OrderQueries {
  constructor(
    private readonly registry: MarketRegistry,
    private readonly store: Store,
  ) {}

  async list(account: string, query: Query): Promise<OrdersPage> {
    const statuses = parseStatuses(single(query.status, 'status'));
    const bookText = single(query.orderbookId, 'orderbookId');
    let bookId: number | null = null;
    if (bookText !== undefined && bookText !== '') {
      const market = this.registry.find(bookText);
      if (market === undefined) throw new AppError('UNKNOWN_ORDERBOOK');
      bookId = market.book.id;
    }
    const { page, limit } = pageOf(query, DEFAULT_LIMIT, MAX_LIMIT);
    // Read the event id first: the listing is at least as new as it, so replaying stream events
    // after it never misses one.
    const lastUpdateId = await this.store.orders.lastEventId(account);
    const { orders, total } = await this.store.orders.page({ account, statuses, bookId, offset: offsetOf(page, limit), limit });
    return { orders: orders.map((order) => listItemOf(this.registry, order)), total, page, limit, lastUpdateId };
  }

  /** One page of the order's events, oldest first; another account's order is a 404 like a missing one. */
  async history(account: string, orderIdText: string, query: Query): Promise<OrderHistory> {
    const order = ORDER_ID.test(orderIdText) ? await this.store.orders.get(Number(orderIdText)) : undefined;
    if (order === undefined || order.account !== account) throw new AppError('ORDER_NOT_FOUND');
    const { page, limit } = pageOf(query, DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT);
    const stored = await this.store.orders.historyPage(order.id, offsetOf(page, limit), limit);
    return {
      orderId: order.id,
      orderbookId: String(order.bookId),
      events: stored.events.map((event) => historyEventOf(this.registry, order.bookId, event)),
      total: stored.total,
      page,
      limit,
    };
  }
}
