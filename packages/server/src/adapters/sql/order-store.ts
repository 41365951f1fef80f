import type { SelfTradePrevention } from '@dex/core';
import type {
  FillRole,
  OrderEventRecord,
  OrderEventType,
  OrderRecord,
  OrderState,
  OrderType,
  StoredTurnIds,
  TurnWrite,
} from '../../domain/orders/order-records.js';
import type { NewTrade } from '../../domain/orders/trade-records.js';
import type { ListedOrder, OrderQuery, OrderStore } from '../../ports/store/order-ports.js';
import type { SqlCancellationStore } from './cancellation-store.js';
import { advancePositions, commandPosition, commandPositionStatements } from './command-positions.js';
import { columnNames, insertRowsReturning, insertRowsText, writeRows } from './json-rows.js';
import { EVENT_COLUMNS, eventRows, ORDER_COLUMNS, orderRows, PROGRESS_COLUMNS, progressRows } from './order-rows.js';
import type { SqlSettlementStore } from './settlement-store.js';
import { type SqlClient, type SqlDialect, type SqlExecutor, type SqlText, selectList, sql, started } from './sql-client.js';
import type { SqlTradeStore } from './trade-store.js';

interface OrderRow {
  id: number;
  order_hash: string;
  account: string;
  book_id: number;
  type: OrderType;
  side: 'buy' | 'sell';
  /** Decimal text: see `selectList`. */
  price_ticks: string;
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
  self_trade_prevention: SelfTradePrevention;
  signed_order: string;
  signature: string;
  created_at: number;
  updated_at: number;
}

interface EventRow {
  id: number;
  sequence: number;
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
    priceTicks: BigInt(row.price_ticks),
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
    selfTradePrevention: row.self_trade_prevention,
    signedOrder: row.signed_order,
    signature: row.signature,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toEvent(row: EventRow): OrderEventRecord {
  return {
    id: row.id,
    sequence: Number(row.sequence),
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
/** Every column of an order row, its price exactly. */
const ORDER_FIELDS = selectList(
  ORDER_COLUMNS.map(([name]) => name),
  ['price_ticks'],
);

/** The statements of the order store. */
function orderStatements(dialect: SqlDialect) {
  const progressed = PROGRESS_COLUMNS.slice(1)
    .map(([name]) => `${name} = r.${name}`)
    .join(', ');
  return {
    // A turn's rows go in one statement per table: a server engine then parses, plans and answers once per turn.
    insertOrders: sql(insertRowsText(dialect, 'orders', ORDER_COLUMNS)),
    updateOrders: sql(`UPDATE orders SET ${progressed} FROM ${dialect.jsonRows(PROGRESS_COLUMNS)} AS r WHERE orders.id = r.id`),
    // Each event's sequence continues its order's: the subquery sees the events stored before this
    // statement (both engines read the table as it was when the statement began).
    insertEvents: sql<{ id: number; sequence: number }>(
      `INSERT INTO order_events (${columnNames(EVENT_COLUMNS.slice(1))}, sequence)
       SELECT ${columnNames(EVENT_COLUMNS.slice(1))},
         coalesce((SELECT max(e.sequence) FROM order_events AS e WHERE e.order_id = r.order_id), 0) + r.nth
       FROM ${dialect.jsonRows(EVENT_COLUMNS)} AS r
       RETURNING id, sequence`,
    ),
    setUpdateId: sql(
      `INSERT INTO book_state (book_id, last_update_id) VALUES (?, ?)
       ON CONFLICT (book_id) DO UPDATE SET last_update_id = excluded.last_update_id`,
    ),
    floor: sql<{ nonce_floor: string }>('SELECT nonce_floor FROM trading_accounts WHERE account = ?'),
    setFloor: sql(
      `INSERT INTO trading_accounts (account, last_nonce, nonce_floor) VALUES (@account, '0', @floor)
       ON CONFLICT (account) DO UPDATE SET nonce_floor = excluded.nonce_floor`,
    ),
    // An order whose cancellation waits for the reactor is off its book already.
    openOrders: sql<OrderRow>(
      `SELECT ${ORDER_FIELDS} FROM orders WHERE status IN ${OPEN_STATES}
         AND id NOT IN (SELECT order_id FROM order_cancellations WHERE finalized_at IS NULL)
       ORDER BY id`,
    ),
    maxId: sql<{ id: number | null }>('SELECT max(id) AS id FROM orders'),
    byHashes: sql<OrderRow>(`SELECT ${ORDER_FIELDS} FROM orders WHERE order_hash IN ${dialect.jsonList('text')}`),
    byId: sql<OrderRow>(`SELECT ${ORDER_FIELDS} FROM orders WHERE id = ?`),
    booksOf: sql<{ id: number; book_id: number }>(`SELECT id, book_id FROM orders WHERE id IN ${dialect.jsonList('integer')}`),
    history: sql<EventRow>(
      `SELECT e.*, t.price, t.base_amount, t.quote_amount FROM order_events e LEFT JOIN trades t ON t.id = e.trade_id
       WHERE e.order_id = ? ORDER BY e.id`,
    ),
    historyPage: sql<EventRow>(
      `SELECT e.*, t.price, t.base_amount, t.quote_amount FROM order_events e LEFT JOIN trades t ON t.id = e.trade_id
       WHERE e.order_id = ? ORDER BY e.id LIMIT ? OFFSET ?`,
    ),
    historyCount: sql<{ total: number }>('SELECT count(*) AS total FROM order_events WHERE order_id = ?'),
    lastEventId: sql<{ id: number | null }>('SELECT max(id) AS id FROM order_events WHERE account = ?'),
    updateIds: sql<{ book_id: number; last_update_id: number }>('SELECT * FROM book_state'),
  };
}

type OrderStatements = ReturnType<typeof orderStatements>;

/** The stores whose rows a turn writes in the same transaction as its orders. */
interface TurnPartners {
  readonly trades: SqlTradeStore;
  readonly settlements: SqlSettlementStore;
  readonly cancellations: SqlCancellationStore;
}

/** Floors only rise: a late, lower cancel/all must not revive orders. */
async function raiseFloors(tx: SqlExecutor, statements: OrderStatements, floors: ReadonlyMap<string, bigint>): Promise<void> {
  for (const [account, floor] of floors) {
    if (floor > BigInt((await tx.get(statements.floor, account))?.nonce_floor ?? '0')) {
      await tx.run(statements.setFloor, { account, floor: floor.toString() });
    }
  }
}

/**
 * Everything one engine turn changed; runs inside the commit's transaction. Statements that need
 * no answer are issued without waiting for each, so a server engine receives them in one stream.
 */
async function writeTurn(
  tx: SqlExecutor,
  statements: OrderStatements,
  partners: TurnPartners,
  turn: TurnWrite,
): Promise<StoredTurnIds> {
  const orderWrites = started([
    writeRows(tx, statements.insertOrders, orderRows(turn)),
    writeRows(tx, statements.updateOrders, progressRows(turn)),
  ]);
  const tradeIds = await partners.trades.insertWithin(tx, turn.trades);
  const [settlementWrites] = started([
    partners.settlements.insertPendingWithin(
      tx,
      tradeIds.map((id, index) => ({ ...(turn.trades[index] as NewTrade), id })),
    ),
  ]);
  const events = started([insertRowsReturning(tx, statements.insertEvents, eventRows(turn, tradeIds))]);
  const updateIds = [...turn.lastUpdateIds].map(([bookId, updateId]) => tx.run(statements.setUpdateId, bookId, updateId));
  await Promise.all([...orderWrites, settlementWrites, ...events, ...updateIds]);
  await partners.trades.revertWithin(tx, await partners.settlements.failWithin(tx, turn.settlementFailures));
  await partners.cancellations.writeWithin(tx, turn.cancellations, turn.finalizedCancellations, turn.nonceFloors);
  await raiseFloors(tx, statements, turn.nonceFloors);
  const stored = (await Promise.all(events)).flat();
  return { events: stored.map((row) => ({ id: Number(row.id), sequence: Number(row.sequence) })), tradeIds };
}

/**
 * Event ids come from one sequence, but engines of different shards commit on their own: without
 * this, an account's event could commit after one with a higher id, and a reader (a listing's
 * `lastUpdateId`, a stream) would pass over it. Locking the accounts first makes each account's
 * event ids rise in commit order.
 */
async function lockAccounts(tx: SqlExecutor, dialect: SqlDialect, turns: readonly TurnWrite[]): Promise<void> {
  if (dialect.keyLocks === null) return;
  const accounts = new Set<string>();
  for (const turn of turns) {
    for (const event of turn.events) accounts.add(event.account);
    for (const account of turn.nonceFloors.keys()) accounts.add(account);
  }
  if (accounts.size > 0) await tx.get(dialect.keyLocks, JSON.stringify([...accounts]));
}

/** Orders, their history and the depth update id of each book. */
class SqlOrderStore implements OrderStore {
  private readonly statements: OrderStatements;
  private readonly positions: ReturnType<typeof commandPositionStatements>;
  /** The statements of `page`, one per filter shape (few: statuses and a book or not). */
  private readonly pageStatements = new Map<
    string,
    { count: SqlText<{ total: number }>; rows: SqlText<OrderRow & { sequence: number | null }> }
  >();

  constructor(
    private readonly db: SqlClient,
    private readonly partners: TurnPartners,
  ) {
    this.statements = orderStatements(db.dialect);
    this.positions = commandPositionStatements(db.dialect);
  }

  async commitTurns(turns: readonly TurnWrite[], positions: ReadonlyMap<number, bigint> = new Map()): Promise<StoredTurnIds[]> {
    return this.db.transaction(async (tx) => {
      // Not awaited first: the connection runs statements in order, so the writes queue behind the locks.
      const locked = started([lockAccounts(tx, this.db.dialect, turns)]);
      const stored: StoredTurnIds[] = [];
      for (const turn of turns) stored.push(await writeTurn(tx, this.statements, this.partners, turn));
      await advancePositions(tx, this.positions, positions);
      await Promise.all(locked);
      return stored;
    });
  }

  commandPosition(shard: number): Promise<bigint> {
    return commandPosition(this.db, this.positions, shard);
  }

  async openOrders(): Promise<OrderRecord[]> {
    return (await this.db.all(this.statements.openOrders)).map(toOrder);
  }

  async maxOrderId(): Promise<number> {
    return Number((await this.db.get(this.statements.maxId))?.id ?? 0);
  }

  async byHashes(hashes: readonly string[]): Promise<OrderRecord[]> {
    return (await this.db.all(this.statements.byHashes, JSON.stringify(hashes))).map(toOrder);
  }

  async get(id: number): Promise<OrderRecord | undefined> {
    const row = await this.db.get(this.statements.byId, id);
    return row === undefined ? undefined : toOrder(row);
  }

  async booksOf(ids: readonly number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.all(this.statements.booksOf, JSON.stringify(ids));
    return new Map(rows.map((row) => [Number(row.id), Number(row.book_id)]));
  }

  async page(query: OrderQuery): Promise<{ orders: ListedOrder[]; total: number }> {
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
    let statements = this.pageStatements.get(clause);
    if (statements === undefined) {
      statements = {
        count: sql(`SELECT count(*) AS total FROM orders WHERE ${clause}`),
        rows: sql(
          `SELECT ${ORDER_FIELDS},
             (SELECT max(e.sequence) FROM order_events AS e WHERE e.order_id = orders.id) AS sequence
           FROM orders WHERE ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`,
        ),
      };
      this.pageStatements.set(clause, statements);
    }
    const [rows, count] = await Promise.all([
      this.db.all(statements.rows, ...parameters, query.limit, query.offset),
      this.db.get(statements.count, ...parameters),
    ]);
    return {
      orders: rows.map((row) => ({ ...toOrder(row), sequence: Number(row.sequence ?? 0) })),
      total: Number(count?.total ?? 0),
    };
  }

  async history(orderId: number): Promise<OrderEventRecord[]> {
    return (await this.db.all(this.statements.history, orderId)).map(toEvent);
  }

  async historyPage(orderId: number, offset: number, limit: number): Promise<{ events: OrderEventRecord[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db.all(this.statements.historyPage, orderId, limit, offset),
      this.db.get(this.statements.historyCount, orderId),
    ]);
    return { events: rows.map(toEvent), total: Number(count?.total ?? 0) };
  }

  async lastEventId(account: string): Promise<number> {
    return Number((await this.db.get(this.statements.lastEventId, account))?.id ?? 0);
  }

  async lastUpdateIds(): Promise<Map<number, number>> {
    return new Map((await this.db.all(this.statements.updateIds)).map((row) => [row.book_id, row.last_update_id]));
  }
}

/** Orders, their history and the depth update id of each book. */
export function sqlOrderStore(
  db: SqlClient,
  trades: SqlTradeStore,
  settlements: SqlSettlementStore,
  cancellations: SqlCancellationStore,
): OrderStore {
  return new SqlOrderStore(db, { trades, settlements, cancellations });
}
