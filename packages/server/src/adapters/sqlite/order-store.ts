import type {
  FillRole,
  NewOrderEvent,
  OrderEventRecord,
  OrderEventType,
  OrderRecord,
  OrderState,
  OrderType,
  StoredTurnIds,
  TurnWrite,
} from '../../domain/orders/order-records.js';
import type { NewTrade } from '../../domain/orders/trade-records.js';
import type { OrderQuery, OrderStore } from '../../ports/store/order-ports.js';
import type { SqliteCancellationStore } from './cancellation-store.js';
import { inTransaction, type SqlDatabase } from './driver.js';
import type { SqliteSettlementStore } from './settlement-store.js';
import type { SqliteTradeStore } from './trade-store.js';

interface OrderRow {
  id: number;
  order_hash: string;
  account: string;
  book_id: number;
  type: OrderType;
  side: 'buy' | 'sell';
  price_ticks: number;
  quantity_steps: number;
  filled_steps: number;
  filled_input: string;
  filled_output: string;
  status: OrderState;
  reason: string | null;
  nonce: string;
  deadline: number;
  oco_order_id: number | null;
  use_amm: number;
  signed_order: string;
  signature: string;
  created_at: number;
  updated_at: number;
}

interface EventRow {
  id: number;
  order_id: number;
  type: OrderEventType;
  timestamp: number;
  tx_hash: string | null;
  reason: string | null;
  trade_id: number | null;
  role: FillRole | null;
  price: string | null;
  base_amount: string | null;
  quote_amount: string | null;
}

function toOrder(row: OrderRow): OrderRecord {
  return {
    id: row.id,
    orderHash: row.order_hash,
    account: row.account,
    bookId: row.book_id,
    type: row.type,
    side: row.side,
    priceTicks: row.price_ticks,
    quantitySteps: row.quantity_steps,
    filledSteps: row.filled_steps,
    filledInput: BigInt(row.filled_input),
    filledOutput: BigInt(row.filled_output),
    status: row.status,
    reason: row.reason,
    nonce: BigInt(row.nonce),
    deadline: row.deadline,
    ocoOrderId: row.oco_order_id,
    useAmm: row.use_amm === 1,
    signedOrder: row.signed_order,
    signature: row.signature,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toEvent(row: EventRow): OrderEventRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    type: row.type,
    timestamp: row.timestamp,
    txHash: row.tx_hash,
    reason: row.reason,
    fill:
      row.trade_id === null || row.role === null
        ? null
        : {
            tradeId: row.trade_id,
            price: row.price ?? '',
            baseAmount: BigInt(row.base_amount ?? '0'),
            quoteAmount: BigInt(row.quote_amount ?? '0'),
            role: row.role,
          },
  };
}

const OPEN_STATES = "('OPEN', 'PARTIALLY_FILLED')";

/** The prepared statements of the order store, compiled once per connection. */
function orderStatements(db: SqlDatabase) {
  return {
    insertOrder: db.prepare(
      `INSERT INTO orders (id, order_hash, account, book_id, type, side, price_ticks, quantity_steps, filled_steps,
         filled_input, filled_output, status, reason, nonce, deadline, oco_order_id, use_amm, signed_order, signature, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateOrder: db.prepare(
      `UPDATE orders SET status = @status, reason = @reason, filled_steps = @filledSteps, filled_input = @filledInput,
         filled_output = @filledOutput, updated_at = @updatedAt WHERE id = @id`,
    ),
    insertEvent: db.prepare(
      `INSERT INTO order_events (order_id, account, type, timestamp, reason, trade_id, role, tx_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    setUpdateId: db.prepare(
      `INSERT INTO book_state (book_id, last_update_id) VALUES (?, ?)
       ON CONFLICT (book_id) DO UPDATE SET last_update_id = excluded.last_update_id`,
    ),
    floor: db.prepare<{ nonce_floor: string }>('SELECT nonce_floor FROM trading_accounts WHERE account = ?'),
    setFloor: db.prepare(
      `INSERT INTO trading_accounts (account, last_nonce, nonce_floor) VALUES (@account, '0', @floor)
       ON CONFLICT (account) DO UPDATE SET nonce_floor = excluded.nonce_floor`,
    ),
    // An order whose cancellation waits for the reactor is off its book already.
    openOrders: db.prepare<OrderRow>(
      `SELECT * FROM orders WHERE status IN ${OPEN_STATES}
         AND id NOT IN (SELECT order_id FROM order_cancellations WHERE finalized_at IS NULL)
       ORDER BY id`,
    ),
    maxId: db.prepare<{ id: number | null }>('SELECT max(id) AS id FROM orders'),
    byHashes: db.prepare<OrderRow>('SELECT * FROM orders WHERE order_hash IN (SELECT value FROM json_each(?))'),
    byId: db.prepare<OrderRow>('SELECT * FROM orders WHERE id = ?'),
    history: db.prepare<EventRow>(
      `SELECT e.*, t.price, t.base_amount, t.quote_amount FROM order_events e LEFT JOIN trades t ON t.id = e.trade_id
       WHERE e.order_id = ? ORDER BY e.id`,
    ),
    historyPage: db.prepare<EventRow>(
      `SELECT e.*, t.price, t.base_amount, t.quote_amount FROM order_events e LEFT JOIN trades t ON t.id = e.trade_id
       WHERE e.order_id = ? ORDER BY e.id LIMIT ? OFFSET ?`,
    ),
    historyCount: db.prepare<{ total: number }>('SELECT count(*) AS total FROM order_events WHERE order_id = ?'),
    lastEventId: db.prepare<{ id: number | null }>('SELECT max(id) AS id FROM order_events WHERE account = ?'),
    updateIds: db.prepare<{ book_id: number; last_update_id: number }>('SELECT * FROM book_state'),
  };
}

type OrderStatements = ReturnType<typeof orderStatements>;

/** The stores whose rows a turn writes in the same transaction as its orders. */
interface TurnPartners {
  readonly trades: SqliteTradeStore;
  readonly settlements: SqliteSettlementStore;
  readonly cancellations: SqliteCancellationStore;
}

/** New orders in full; positional parameters, as these run for every order and binding by name costs measurably more. */
function insertNewOrders(statements: OrderStatements, turn: TurnWrite): void {
  for (const order of turn.newOrders) {
    const progress = turn.progress.get(order.id) ?? order;
    statements.insertOrder.run(
      order.id,
      order.orderHash,
      order.account,
      order.bookId,
      order.type,
      order.side,
      order.priceTicks,
      order.quantitySteps,
      progress.filledSteps,
      progress.filledInput.toString(),
      progress.filledOutput.toString(),
      progress.status,
      progress.reason,
      order.nonce.toString(),
      order.deadline,
      order.ocoOrderId,
      order.useAmm ? 1 : 0,
      order.signedOrder,
      order.signature,
      order.createdAt,
      progress.updatedAt,
    );
  }
}

/** The trade a history event refers to: one of the turn by its index, or a stored one by its id. */
function tradeIdOf(fill: NewOrderEvent['fill'], turnTradeIds: readonly number[]): number | null {
  if (fill === null) return null;
  return 'tradeIndex' in fill ? (turnTradeIds[fill.tradeIndex] ?? null) : fill.tradeId;
}

/** Everything one engine turn changed; runs inside the commit's transaction. */
function writeTurn(statements: OrderStatements, partners: TurnPartners, turn: TurnWrite): StoredTurnIds {
  insertNewOrders(statements, turn);
  const fresh = new Set(turn.newOrders.map((order) => order.id));
  for (const [id, progress] of turn.progress) {
    if (fresh.has(id)) continue;
    statements.updateOrder.run({
      id,
      ...progress,
      filledInput: progress.filledInput.toString(),
      filledOutput: progress.filledOutput.toString(),
    });
  }
  const tradeIds = partners.trades.insertWithin(turn.trades);
  partners.settlements.insertPendingWithin(tradeIds.map((id, index) => ({ ...(turn.trades[index] as NewTrade), id })));
  const eventIds = turn.events.map((event) =>
    Number(
      statements.insertEvent.run(
        event.orderId,
        event.account,
        event.type,
        event.timestamp,
        event.reason,
        tradeIdOf(event.fill, tradeIds),
        event.fill?.role ?? null,
        event.txHash ?? null,
      ).lastInsertRowid,
    ),
  );
  for (const [bookId, updateId] of turn.lastUpdateIds) statements.setUpdateId.run(bookId, updateId);
  partners.trades.revertWithin(partners.settlements.failWithin(turn.settlementFailures));
  partners.cancellations.writeWithin(turn.cancellations, turn.finalizedCancellations, turn.nonceFloors);
  for (const [account, floor] of turn.nonceFloors) {
    // Floors only rise: a late, lower cancel/all must not revive orders.
    if (floor > BigInt(statements.floor.get(account)?.nonce_floor ?? '0')) {
      statements.setFloor.run({ account, floor: floor.toString() });
    }
  }
  return { eventIds, tradeIds };
}

/** Orders, their history and the depth update id of each book. */
class SqliteOrderStore implements OrderStore {
  private readonly statements: OrderStatements;

  constructor(
    private readonly db: SqlDatabase,
    private readonly partners: TurnPartners,
  ) {
    this.statements = orderStatements(db);
  }

  async commitTurns(turns: readonly TurnWrite[]): Promise<StoredTurnIds[]> {
    return inTransaction(this.db, () => turns.map((turn) => writeTurn(this.statements, this.partners, turn)));
  }

  async openOrders(): Promise<OrderRecord[]> {
    return this.statements.openOrders.all().map(toOrder);
  }

  async maxOrderId(): Promise<number> {
    return this.statements.maxId.get()?.id ?? 0;
  }

  async byHashes(hashes: readonly string[]): Promise<OrderRecord[]> {
    return this.statements.byHashes.all(JSON.stringify(hashes)).map(toOrder);
  }

  async get(id: number): Promise<OrderRecord | undefined> {
    const row = this.statements.byId.get(id);
    return row === undefined ? undefined : toOrder(row);
  }

  async page(query: OrderQuery): Promise<{ orders: OrderRecord[]; total: number }> {
    const where = ['account = ?'];
    const parameters: (string | number)[] = [query.account];
    if (query.statuses !== null) {
      where.push(`status IN (${query.statuses.map(() => '?').join(', ')})`);
      parameters.push(...query.statuses);
    }
    if (query.bookId !== null) {
      where.push('book_id = ?');
      parameters.push(query.bookId);
    }
    const clause = where.join(' AND ');
    // The filter set is small and fixed, so these statements are few; SQLite caches its plans.
    const count = this.db.prepare<{ total: number }>(`SELECT count(*) AS total FROM orders WHERE ${clause}`);
    const rows = this.db
      .prepare<OrderRow>(`SELECT * FROM orders WHERE ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...parameters, query.limit, query.offset);
    return { orders: rows.map(toOrder), total: count.get(...parameters)?.total ?? 0 };
  }

  async history(orderId: number): Promise<OrderEventRecord[]> {
    return this.statements.history.all(orderId).map(toEvent);
  }

  async historyPage(orderId: number, offset: number, limit: number): Promise<{ events: OrderEventRecord[]; total: number }> {
    const events = this.statements.historyPage.all(orderId, limit, offset).map(toEvent);
    return { events, total: this.statements.historyCount.get(orderId)?.total ?? 0 };
  }

  async lastEventId(account: string): Promise<number> {
    return this.statements.lastEventId.get(account)?.id ?? 0;
  }

  async lastUpdateIds(): Promise<Map<number, number>> {
    return new Map(this.statements.updateIds.all().map((row) => [row.book_id, row.last_update_id]));
  }
}

/** Orders, their history and the depth update id of each book. */
export function sqliteOrderStore(
  db: SqlDatabase,
  trades: SqliteTradeStore,
  settlements: SqliteSettlementStore,
  cancellations: SqliteCancellationStore,
): OrderStore {
  return new SqliteOrderStore(db, { trades, settlements, cancellations });
}
