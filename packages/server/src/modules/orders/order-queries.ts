import { AppError } from '../../errors.js';
import { offsetOf, parseCount, single } from '../../http/query.js';
import type { MarketRegistry } from '../../registry/market-registry.js';
import type { OrderState } from '../../store/order-ports.js';
import type { Store } from '../../store/ports.js';
import { type HistoryEventView, historyEventOf, listItemOf, type OrderListItem } from './order-views.js';

const STATES: readonly OrderState[] = ['OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'REJECTED'];
const ORDER_ID = /^[1-9][0-9]{0,15}$/;
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

export interface OrdersPage {
  orders: OrderListItem[];
  total: number;
  page: number;
  limit: number;
  lastUpdateId: number;
}

export interface OrderHistory {
  orderId: number;
  orderbookId: number;
  events: HistoryEventView[];
  total: number;
}

/** `status`: one state or a comma-separated list, case-insensitive; absent means all. */
function parseStatuses(value: string | undefined): OrderState[] | null {
  if (value === undefined || value === '') return null;
  return value.split(',').map((part) => {
    const state = part.trim().toUpperCase() as OrderState;
    if (!STATES.includes(state)) throw new AppError('VALIDATION_FAILED', `status must be one or more of ${STATES.join(', ')}`);
    return state;
  });
}

/** The account's orders and their history: what a client recovers its state from after a reconnect. */
export class OrderQueries {
  constructor(
    private readonly registry: MarketRegistry,
    private readonly store: Store,
  ) {}

  async list(account: string, query: Record<string, string | string[] | undefined>): Promise<OrdersPage> {
    const statuses = parseStatuses(single(query.status, 'status'));
    const bookText = single(query.orderbookId, 'orderbookId');
    let bookId: number | null = null;
    if (bookText !== undefined && bookText !== '') {
      const market = this.registry.find(bookText);
      if (market === undefined) throw new AppError('UNKNOWN_ORDERBOOK');
      bookId = market.book.id;
    }
    const page = parseCount(single(query.page, 'page'), 1);
    const limit = parseCount(single(query.limit, 'limit'), DEFAULT_LIMIT, MAX_LIMIT);
    // Read the event id first: the listing is at least as new as it, so replaying stream events
    // after it never misses one.
    const lastUpdateId = await this.store.orders.lastEventId(account);
    const { orders, total } = await this.store.orders.page({ account, statuses, bookId, offset: offsetOf(page, limit), limit });
    return { orders: orders.map((order) => listItemOf(this.registry, order)), total, page, limit, lastUpdateId };
  }

  /** The order's events, oldest first; another account's order is a 404 like a missing one. */
  async history(account: string, orderIdText: string): Promise<OrderHistory> {
    const order = ORDER_ID.test(orderIdText) ? await this.store.orders.get(Number(orderIdText)) : undefined;
    if (order === undefined || order.account !== account) throw new AppError('ORDER_NOT_FOUND');
    const events = (await this.store.orders.history(order.id)).map((event) => historyEventOf(this.registry, order.bookId, event));
    return { orderId: order.id, orderbookId: order.bookId, events, total: events.length };
  }
}
