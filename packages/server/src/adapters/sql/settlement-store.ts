import type { SettlementFailure } from '../../domain/orders/order-records.js';
import type { SettledFill, SettlementStore, UnsettledTrade } from '../../ports/store/settlement-ports.js';
import { writeRows } from './json-rows.js';
import { type JsonColumn, type SqlClient, type SqlDialect, type SqlExecutor, sql } from './sql-client.js';

interface UnsettledRow {
  trade_id: number;
  book_id: number;
  direction: 'buy' | 'sell';
  price: string;
  base_amount: string;
  quote_amount: string;
  status: 'pending' | 'submitted';
  tx_hash: string | null;
  /** The maker's columns are null together: a swap with the pool. */
  maker_id: number | null;
  maker_account: string;
  maker_hash: string;
  maker_order: string;
  maker_signature: string;
  taker_id: number;
  taker_account: string;
  taker_hash: string;
  taker_order: string;
  taker_signature: string;
}

const UNSETTLED = `
  SELECT s.trade_id, t.book_id, t.direction, t.price, t.base_amount, t.quote_amount, s.status, s.tx_hash,
    m.id AS maker_id, m.account AS maker_account, m.order_hash AS maker_hash, m.signed_order AS maker_order,
    m.signature AS maker_signature,
    k.id AS taker_id, k.account AS taker_account, k.order_hash AS taker_hash, k.signed_order AS taker_order,
    k.signature AS taker_signature
  FROM settlements s
  JOIN trades t ON t.id = s.trade_id
  LEFT JOIN orders m ON m.id = t.maker_order_id
  JOIN orders k ON k.id = t.taker_order_id`;

function toUnsettled(row: UnsettledRow): UnsettledTrade {
  return {
    tradeId: row.trade_id,
    bookId: row.book_id,
    direction: row.direction,
    price: row.price,
    baseAmount: BigInt(row.base_amount),
    quoteAmount: BigInt(row.quote_amount),
    status: row.status,
    txHash: row.tx_hash,
    maker:
      row.maker_id === null
        ? null
        : {
            orderId: row.maker_id,
            account: row.maker_account,
            orderHash: row.maker_hash,
            signedOrder: row.maker_order,
            signature: row.maker_signature,
          },
    taker: {
      orderId: row.taker_id,
      account: row.taker_account,
      orderHash: row.taker_hash,
      signedOrder: row.taker_order,
      signature: row.taker_signature,
    },
  };
}

export interface SqlSettlementStore extends SettlementStore {
  /** Queues new trades for settlement inside the caller's transaction. */
  insertPendingWithin(
    tx: SqlExecutor,
    trades: readonly { id: number; executedAt: number; makerOrderId: number | null; takerOrderId: number }[],
  ): Promise<void>;
  /** Marks trades failed inside the caller's transaction (settled ones are left alone); returns those it marked. */
  failWithin(tx: SqlExecutor, failures: readonly SettlementFailure[]): Promise<SettlementFailure[]>;
}

/** The columns of a trade's pending settlement. */
const PENDING_COLUMNS: readonly JsonColumn[] = [
  ['trade_id', 'integer'],
  ['maker_order_id', 'integer'],
  ['taker_order_id', 'integer'],
  ['updated_at', 'integer'],
];

/** The prepared statements of the settlement store. */
function settlementStatements(dialect: SqlDialect) {
  const ids = dialect.jsonList('integer');
  return {
    insert: sql(
      `INSERT INTO settlements (trade_id, maker_order_id, taker_order_id, status, updated_at)
       SELECT trade_id, maker_order_id, taker_order_id, 'pending', updated_at FROM ${dialect.jsonRows(PENDING_COLUMNS)} AS r`,
    ),
    pending: sql<UnsettledRow>(`${UNSETTLED} WHERE s.status = 'pending' ORDER BY s.trade_id LIMIT ?`),
    submitted: sql<UnsettledRow>(`${UNSETTLED} WHERE s.status = 'submitted' ORDER BY s.trade_id`),
    submit: sql(
      `UPDATE settlements SET status = 'submitted', tx_hash = ?, updated_at = ?
       WHERE status = 'pending' AND trade_id IN ${ids}`,
    ),
    requeue: sql(
      `UPDATE settlements SET status = 'pending', tx_hash = NULL, updated_at = ?
       WHERE status = 'submitted' AND trade_id IN ${ids}`,
    ),
    // A fill recorded settled in another transaction (or none) moves to this one: the reactor
    // settles a fill once, so the event on the chain as it is now names the transaction that holds it.
    settle: sql(
      `UPDATE settlements SET status = 'settled', tx_hash = ?, block_number = ?, maker_fee = ?, taker_fee = ?, reason = NULL,
         updated_at = ?
       WHERE trade_id = ? AND (status <> 'settled' OR COALESCE(tx_hash, '') <> ?)`,
    ),
    executedAt: sql<{ executed_at: number }>('SELECT executed_at FROM trades WHERE id = ?'),
    settleWithoutEvent: sql(
      `UPDATE settlements SET status = 'settled', tx_hash = NULL, block_number = ?, maker_fee = NULL, taker_fee = NULL,
         reason = 'NO_EVENT', updated_at = ?
       WHERE trade_id = ? AND status <> 'settled'`,
    ),
    tradeHash: sql('UPDATE trades SET transaction_hash = ? WHERE id = ?'),
    eventHash: sql("UPDATE order_events SET tx_hash = ? WHERE trade_id = ? AND type IN ('PARTIAL_FILL', 'FILLED')"),
    fail: sql(
      `UPDATE settlements SET status = 'failed', reason = ?, updated_at = ?
       WHERE trade_id = ? AND status IN ('pending', 'submitted')`,
    ),
    unsettled: sql<{ trade_id: number }>(
      `SELECT trade_id FROM settlements WHERE status IN ('pending', 'submitted') AND trade_id IN ${ids}`,
    ),
    unsettledSwaps: sql<UnsettledRow>(
      `${UNSETTLED} WHERE s.status IN ('pending', 'submitted') AND s.maker_order_id IS NULL ORDER BY s.trade_id`,
    ),
    unsettledTrades: sql<UnsettledRow>(
      `${UNSETTLED} WHERE s.status IN ('pending', 'submitted') AND s.trade_id IN ${ids} ORDER BY s.trade_id`,
    ),
    settledAfter: sql<{ trade_id: number }>("SELECT trade_id FROM settlements WHERE status = 'settled' AND block_number > ?"),
    requeueSettled: sql(
      "UPDATE settlements SET status = 'pending', tx_hash = NULL, block_number = NULL, maker_fee = NULL, taker_fee = NULL, reason = NULL, updated_at = ? WHERE trade_id = ?",
    ),
    cursor: sql<{ block_number: number }>('SELECT block_number FROM chain_cursors WHERE name = ?'),
    setCursor: sql(
      `INSERT INTO chain_cursors (name, block_number) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET block_number = excluded.block_number`,
    ),
  };
}

type SettlementStatements = ReturnType<typeof settlementStatements>;

/**
 * Marks one fill settled with its transaction, and names it on the tape and in the history; the
 * trade it settled, or undefined when it was already, in that transaction.
 */
async function settleOne(tx: SqlExecutor, statements: SettlementStatements, fill: SettledFill, now: number) {
  const changed = await tx.run(
    statements.settle,
    fill.txHash,
    Number(fill.blockNumber),
    fill.makerFee.toString(),
    fill.takerFee.toString(),
    now,
    fill.tradeId,
    fill.txHash,
  );
  if (changed === 0) return undefined;
  await Promise.all([
    tx.run(statements.tradeHash, fill.txHash, fill.tradeId),
    tx.run(statements.eventHash, fill.txHash, fill.tradeId),
  ]);
  return { tradeId: fill.tradeId, executedAt: (await tx.get(statements.executedAt, fill.tradeId))?.executed_at ?? now };
}

/** Puts the trades settled in blocks after `block` (which the chain lost) back in the queue; returns how many. */
async function requeueSettled(tx: SqlExecutor, statements: SettlementStatements, block: bigint, now: number): Promise<number> {
  const lost = await tx.all(statements.settledAfter, Number(block));
  await Promise.all(
    lost.flatMap(({ trade_id }) => [
      tx.run(statements.requeueSettled, now, trade_id),
      tx.run(statements.tradeHash, null, trade_id),
      tx.run(statements.eventHash, null, trade_id),
    ]),
  );
  return lost.length;
}

/** Settlement state of trades and the indexer's cursors. */
export function sqlSettlementStore(db: SqlClient): SqlSettlementStore {
  const statements = settlementStatements(db.dialect);
  return {
    async insertPendingWithin(tx, trades) {
      await writeRows(
        tx,
        statements.insert,
        trades.map((trade) => [trade.id, trade.makerOrderId, trade.takerOrderId, trade.executedAt]),
      );
    },
    async pending(limit) {
      return (await db.all(statements.pending, limit)).map(toUnsettled);
    },
    async submitted() {
      return (await db.all(statements.submitted)).map(toUnsettled);
    },
    async markSubmitted(tradeIds, txHash, now) {
      // Not waiting for the disk: a restart puts submitted trades back in the queue anyway (the
      // reactor refuses a fill settled twice), so only kill -9 must not lose it, and it does not.
      await db.relaxedTransaction((tx) => tx.run(statements.submit, txHash, now, JSON.stringify(tradeIds)));
    },
    async markPending(tradeIds, now) {
      await db.run(statements.requeue, now, JSON.stringify(tradeIds));
    },
    async markSettled(fills, now) {
      // Not waiting for the disk, as the cursor: a settlement a crash of the machine takes back is
      // found again in its block (the log is written in order, so the cursor goes back with it).
      // Each statement is conditional and idempotent, so READ COMMITTED is enough.
      return db.relaxedTransaction(async (tx) => {
        const settled = await Promise.all(fills.map((fill) => settleOne(tx, statements, fill, now)));
        return settled.filter((trade) => trade !== undefined);
      });
    },
    async markSettledWithoutEvent(tradeIds, seenAt, now) {
      return db.transaction(async (tx) => {
        const changed = await Promise.all(
          tradeIds.map((tradeId) => tx.run(statements.settleWithoutEvent, Number(seenAt), now, tradeId)),
        );
        return tradeIds.filter((_, index) => (changed[index] ?? 0) > 0);
      });
    },
    async failWithin(tx, failures) {
      const changed = await Promise.all(
        failures.map(({ tradeId, reason, time }) => tx.run(statements.fail, reason, time, tradeId)),
      );
      return failures.filter((_, index) => (changed[index] ?? 0) > 0);
    },
    async unsettledSwaps() {
      return (await db.all(statements.unsettledSwaps)).map(toUnsettled);
    },
    async unsettledTrades(tradeIds) {
      return (await db.all(statements.unsettledTrades, JSON.stringify(tradeIds))).map(toUnsettled);
    },
    async requeueSettledAfter(block, now) {
      return db.transaction((tx) => requeueSettled(tx, statements, block, now));
    },
    async unsettled(tradeIds) {
      return new Set((await db.all(statements.unsettled, JSON.stringify(tradeIds))).map((row) => row.trade_id));
    },
    async cursor(name) {
      const row = await db.get(statements.cursor, name);
      return row === undefined ? null : BigInt(row.block_number);
    },
    async setCursor(name, block) {
      // Not waiting for the disk: a cursor a crash of the machine takes back only indexes blocks
      // again, and applying an event twice changes nothing.
      await db.relaxedTransaction((tx) => tx.run(statements.setCursor, name, Number(block)));
    },
  };
}
