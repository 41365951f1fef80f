/**
 * The rows an engine turn writes for its orders, as `jsonRows` takes them: one array per row, its
 * values in the order of the table's column list.
 */
import type { NewOrderEvent, OrderProgress, TurnWrite } from '../../domain/orders/order-records.js';
import type { JsonRow } from './json-rows.js';
import type { JsonColumn } from './sql-client.js';

/** An order's state after a turn, in the order `progressValues` gives it: part of both lists below. */
const STATE_COLUMNS: readonly JsonColumn[] = [
  ['status', 'text'],
  ['reason', 'text'],
  ['filled_steps', 'integer'],
  ['filled_input', 'text'],
  ['filled_output', 'text'],
];

/** The columns a new order is written with, in the order `orderRows` gives them. */
export const ORDER_COLUMNS: readonly JsonColumn[] = [
  ['id', 'integer'],
  ['order_hash', 'text'],
  ['account', 'text'],
  ['book_id', 'integer'],
  ['type', 'text'],
  ['side', 'text'],
  ['price_ticks', 'integer'],
  ['quantity_steps', 'integer'],
  ...STATE_COLUMNS,
  ['nonce', 'text'],
  ['deadline', 'integer'],
  ['oco_order_id', 'integer'],
  ['use_amm', 'integer'],
  ['self_trade_prevention', 'text'],
  ['signed_order', 'text'],
  ['signature', 'text'],
  ['created_at', 'integer'],
  ['updated_at', 'integer'],
];

/** The columns a turn's progress of a stored order changes, `id` first, in the order `progressRows` gives them. */
export const PROGRESS_COLUMNS: readonly JsonColumn[] = [['id', 'integer'], ...STATE_COLUMNS, ['updated_at', 'integer']];

/**
 * The columns of an order event, in the order `eventRows` gives them; `nth` is not stored: it
 * numbers the row among the events of its order in the same statement, from 1, so that the
 * statement can take each event's `sequence` as the order's last one plus `nth`.
 */
export const EVENT_COLUMNS: readonly JsonColumn[] = [
  ['nth', 'integer'],
  ['order_id', 'integer'],
  ['account', 'text'],
  ['type', 'text'],
  ['timestamp', 'integer'],
  ['reason', 'text'],
  ['trade_id', 'integer'],
  ['role', 'text'],
  ['tx_hash', 'text'],
];

/** New orders in full, as `ORDER_COLUMNS` lists them (the state part as `progressValues` gives it). */
export function orderRows(turn: TurnWrite): JsonRow[] {
  return turn.newOrders.map((order) => {
    const progress = turn.progress.get(order.id) ?? order;
    return [
      order.id,
      order.orderHash,
      order.account,
      order.bookId,
      order.type,
      order.side,
      order.priceTicks.toString(),
      order.quantitySteps,
      ...progressValues(progress),
      order.nonce.toString(),
      order.deadline,
      order.ocoOrderId,
      order.useAmm ? 1 : 0,
      order.selfTradePrevention,
      order.signedOrder,
      order.signature,
      order.createdAt,
      progress.updatedAt,
    ];
  });
}

/** The trade a history event refers to: one of the turn by its index, or a stored one by its id. */
function tradeIdOf(fill: NewOrderEvent['fill'], turnTradeIds: readonly number[]): number | null {
  if (fill === null) return null;
  return 'tradeIndex' in fill ? (turnTradeIds[fill.tradeIndex] ?? null) : fill.tradeId;
}

/** Progress of orders stored before this turn, as `PROGRESS_COLUMNS` lists it. */
export function progressRows(turn: TurnWrite): JsonRow[] {
  const fresh = new Set(turn.newOrders.map((order) => order.id));
  return [...turn.progress]
    .filter(([id]) => !fresh.has(id))
    .map(([id, progress]) => [id, ...progressValues(progress), progress.updatedAt]);
}

/** An order's state after a turn, as `STATE_COLUMNS` lists it. */
function progressValues(progress: OrderProgress): JsonRow {
  return [
    progress.status,
    progress.reason,
    progress.filledSteps,
    progress.filledInput.toString(),
    progress.filledOutput.toString(),
  ];
}

/** The turn's events, as `EVENT_COLUMNS` lists them. */
export function eventRows(turn: TurnWrite, tradeIds: readonly number[]): JsonRow[] {
  const counts = new Map<number, number>();
  return turn.events.map((event) => [
    counts.set(event.orderId, (counts.get(event.orderId) ?? 0) + 1).get(event.orderId) as number,
    event.orderId,
    event.account,
    event.type,
    event.timestamp,
    event.reason,
    tradeIdOf(event.fill, tradeIds),
    event.fill?.role ?? null,
    event.txHash ?? null,
  ]);
}
