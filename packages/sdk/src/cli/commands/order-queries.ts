import { getOrderHistory } from '../../actions/get-order-history.js';
import { getOrders } from '../../actions/get-orders.js';
import { type HistoryEvent, ORDER_STATUSES, type OrderListItem, type OrderStatus } from '../../order-types.js';
import { statusWord } from '../../wire-compat.js';
import { countOption, UsageError, wholeNumber } from '../arguments.js';
import type { Command } from '../command.js';
import { isoTime, table, tableWithFooter } from '../output.js';

/** `--status active,PARTIALLY_FILLED`: known statuses, any case; `OPEN` is the older word for `ACTIVE`. */
function statusesOf(text: string | undefined): OrderStatus[] | undefined {
  if (text === undefined) return undefined;
  const statuses = text.split(',').map((status) => statusWord(status.trim().toUpperCase() as OrderStatus));
  const unknown = statuses.find((status) => !(ORDER_STATUSES as readonly string[]).includes(status));
  if (unknown !== undefined) throw new UsageError(`--status takes a comma list of ${ORDER_STATUSES.join(', ')}`);
  return statuses;
}

function orderRow(order: OrderListItem): string[] {
  return [
    String(order.id),
    String(order.orderbookId),
    order.pair,
    order.type,
    order.direction,
    order.price,
    order.amount,
    order.filledAmount,
    order.reason === null ? order.status : `${order.status} (${order.reason})`,
    order.createdAt,
  ];
}

export const orderListCommand: Command = {
  name: 'order list',
  synopsis: '[--status S,...] [--book N] [--limit N] [--page N]',
  summary: "the account's orders, newest first",
  help: [
    `  --status S,...   only these statuses: ${ORDER_STATUSES.join(', ')}`,
    '  --book N         only this book',
    '  --limit N        orders per page (the server gives 50, at most 500)',
    '  --page N         1-based page',
    '  --json           the GET /orders answer',
  ].join('\n'),
  options: ['status', 'book', 'limit', 'page'],
  arguments: [0, 0],
  async run(context) {
    const { values } = context;
    const parameters = {
      status: statusesOf(values.status),
      orderbookId: values.book === undefined ? undefined : wholeNumber(values.book, '--book'),
      limit: countOption(values, 'limit'),
      page: countOption(values, 'page'),
    };
    const answer = await getOrders(await context.accountClient('order list'), parameters);
    const columns = [
      { title: 'ID', align: 'right' },
      { title: 'BOOK', align: 'right' },
      { title: 'PAIR', align: 'left' },
      { title: 'TYPE', align: 'left' },
      { title: 'SIDE', align: 'left' },
      { title: 'PRICE', align: 'decimal' },
      { title: 'SIZE', align: 'decimal' },
      { title: 'FILLED', align: 'decimal' },
      { title: 'STATUS', align: 'left' },
      { title: 'CREATED', align: 'left' },
    ] as const;
    const footer = `page ${answer.page}: ${answer.orders.length} of ${answer.total} orders`;
    context.print(answer, tableWithFooter(columns, answer.orders.map(orderRow), footer));
    return 0;
  },
};

function eventRow(event: HistoryEvent): string[] {
  const { fill } = event;
  return [
    String(event.id),
    event.type,
    isoTime(event.timestamp),
    fill?.role ?? '',
    fill?.price ?? '',
    fill?.amountBase ?? '',
    event.reason ?? '',
    event.txHash ?? '',
  ];
}

export const orderHistoryCommand: Command = {
  name: 'order history',
  synopsis: '<id>',
  summary: "an order's events, oldest first: creation, fills, how it ended",
  help: '  --json   the GET /orders/:orderId/history answer',
  options: [],
  arguments: [1, 1],
  async run(context, [id = '']) {
    const orderId = wholeNumber(id, 'The order id');
    const history = await getOrderHistory(await context.accountClient('order history'), { orderId });
    const columns = [
      { title: 'EVENT', align: 'right' },
      { title: 'TYPE', align: 'left' },
      { title: 'TIME', align: 'left' },
      { title: 'ROLE', align: 'left' },
      { title: 'PRICE', align: 'decimal' },
      { title: 'SIZE', align: 'decimal' },
      { title: 'REASON', align: 'left' },
      { title: 'TRANSACTION', align: 'left' },
    ] as const;
    context.print(
      history,
      `order ${history.orderId} on book ${history.orderbookId}: ${history.total} events\n${table(columns, history.events.map(eventRow))}`,
    );
    return 0;
  },
};
