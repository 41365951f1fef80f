import type { SettlementFailure } from '../../domain/orders/order-records.js';
import type { SettlementStore, UnsettledTrade } from '../../ports/store/settlement-ports.js';
import { inTransaction, type SqlDatabase } from './driver.js';

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

export interface SqliteSettlementStore extends SettlementStore {
  /** Queues new trades for settlement inside the caller's transaction. */
  insertPendingWithin(
    trades: readonly { id: number; executedAt: number; makerOrderId: number | null; takerOrderId: number }[],
  ): void;
  /** Marks trades failed inside the caller's transaction (settled ones are left alone); returns those it marked. */
  failWithin(failures: readonly SettlementFailure[]): SettlementFailure[];
}

/** The prepared statements of the settlement store. */
function settlementStatements(db: SqlDatabase) {
  return {
    insert: db.prepare(
      "INSERT INTO settlements (trade_id, maker_order_id, taker_order_id, status, updated_at) VALUES (?, ?, ?, 'pending', ?)",
    ),
    pending: db.prepare<UnsettledRow>(`${UNSETTLED} WHERE s.status = 'pending' ORDER BY s.trade_id LIMIT ?`),
    submitted: db.prepare<UnsettledRow>(`${UNSETTLED} WHERE s.status = 'submitted' ORDER BY s.trade_id`),
    submit: db.prepare(
      `UPDATE settlements SET status = 'submitted', tx_hash = ?, updated_at = ?
       WHERE status = 'pending' AND trade_id IN (SELECT value FROM json_each(?))`,
    ),
    requeue: db.prepare(
      `UPDATE settlements SET status = 'pending', tx_hash = NULL, updated_at = ?
       WHERE status = 'submitted' AND trade_id IN (SELECT value FROM json_each(?))`,
    ),
    settle: db.prepare(
      `UPDATE settlements SET status = 'settled', tx_hash = ?, block_number = ?, maker_fee = ?, taker_fee = ?, reason = NULL,
         updated_at = ?
       WHERE trade_id = ? AND status <> 'settled'`,
    ),
    executedAt: db.prepare<{ executed_at: number }>('SELECT executed_at FROM trades WHERE id = ?'),
    settleWithoutEvent: db.prepare(
      `UPDATE settlements SET status = 'settled', tx_hash = NULL, block_number = ?, maker_fee = NULL, taker_fee = NULL,
         reason = 'NO_EVENT', updated_at = ?
       WHERE trade_id = ? AND status <> 'settled'`,
    ),
    tradeHash: db.prepare('UPDATE trades SET transaction_hash = ? WHERE id = ?'),
    eventHash: db.prepare("UPDATE order_events SET tx_hash = ? WHERE trade_id = ? AND type IN ('PARTIAL_FILL', 'FILLED')"),
    fail: db.prepare(
      `UPDATE settlements SET status = 'failed', reason = ?, updated_at = ?
       WHERE trade_id = ? AND status IN ('pending', 'submitted')`,
    ),
    unsettled: db.prepare<{ trade_id: number }>(
      `SELECT trade_id FROM settlements WHERE status IN ('pending', 'submitted') AND trade_id IN (SELECT value FROM json_each(?))`,
    ),
    unsettledSwaps: db.prepare<UnsettledRow>(
      `${UNSETTLED} WHERE s.status IN ('pending', 'submitted') AND s.maker_order_id IS NULL ORDER BY s.trade_id`,
    ),
    unsettledTrades: db.prepare<UnsettledRow>(
      `${UNSETTLED} WHERE s.status IN ('pending', 'submitted') AND s.trade_id IN (SELECT value FROM json_each(?)) ORDER BY s.trade_id`,
    ),
    settledAfter: db.prepare<{ trade_id: number }>(
      "SELECT trade_id FROM settlements WHERE status = 'settled' AND block_number > ?",
    ),
    requeueSettled: db.prepare(
      "UPDATE settlements SET status = 'pending', tx_hash = NULL, block_number = NULL, maker_fee = NULL, taker_fee = NULL, reason = NULL, updated_at = ? WHERE trade_id = ?",
    ),
    cursor: db.prepare<{ block_number: number }>('SELECT block_number FROM chain_cursors WHERE name = ?'),
    setCursor: db.prepare(
      `INSERT INTO chain_cursors (name, block_number) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET block_number = excluded.block_number`,
    ),
  };
}

/** Settlement state of trades and the indexer's cursors. */
export function sqliteSettlementStore(db: SqlDatabase): SqliteSettlementStore {
  const statements = settlementStatements(db);
  return {
    insertPendingWithin(trades) {
      for (const trade of trades) statements.insert.run(trade.id, trade.makerOrderId, trade.takerOrderId, trade.executedAt);
    },
    async pending(limit) {
      return statements.pending.all(limit).map(toUnsettled);
    },
    async submitted() {
      return statements.submitted.all().map(toUnsettled);
    },
    async markSubmitted(tradeIds, txHash, now) {
      statements.submit.run(txHash, now, JSON.stringify(tradeIds));
    },
    async markPending(tradeIds, now) {
      statements.requeue.run(now, JSON.stringify(tradeIds));
    },
    async markSettled(fills, now) {
      return inTransaction(db, () =>
        fills.flatMap((fill) => {
          const changed = statements.settle.run(
            fill.txHash,
            Number(fill.blockNumber),
            fill.makerFee.toString(),
            fill.takerFee.toString(),
            now,
            fill.tradeId,
          ).changes;
          if (changed === 0) return [];
          statements.tradeHash.run(fill.txHash, fill.tradeId);
          statements.eventHash.run(fill.txHash, fill.tradeId);
          return [{ tradeId: fill.tradeId, executedAt: statements.executedAt.get(fill.tradeId)?.executed_at ?? now }];
        }),
      );
    },
    async markSettledWithoutEvent(tradeIds, seenAt, now) {
      return inTransaction(db, () =>
        tradeIds.filter((tradeId) => statements.settleWithoutEvent.run(Number(seenAt), now, tradeId).changes > 0),
      );
    },
    failWithin(failures) {
      return failures.filter(({ tradeId, reason, time }) => statements.fail.run(reason, time, tradeId).changes > 0);
    },
    async unsettledSwaps() {
      return statements.unsettledSwaps.all().map(toUnsettled);
    },
    async unsettledTrades(tradeIds) {
      return statements.unsettledTrades.all(JSON.stringify(tradeIds)).map(toUnsettled);
    },
    async requeueSettledAfter(block, now) {
      return inTransaction(db, () => {
        const lost = statements.settledAfter.all(Number(block));
        for (const { trade_id } of lost) {
          statements.requeueSettled.run(now, trade_id);
          statements.tradeHash.run(null, trade_id);
          statements.eventHash.run(null, trade_id);
        }
        return lost.length;
      });
    },
    async unsettled(tradeIds) {
      return new Set(statements.unsettled.all(JSON.stringify(tradeIds)).map((row) => row.trade_id));
    },
    async cursor(name) {
      const row = statements.cursor.get(name);
      return row === undefined ? null : BigInt(row.block_number);
    },
    async setCursor(name, block) {
      statements.setCursor.run(name, Number(block));
    },
  };
}
