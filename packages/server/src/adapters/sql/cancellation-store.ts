import type { CancellationRequest } from '../../domain/orders/order-records.js';
import type { CancellationStore } from '../../ports/store/settlement-ports.js';
import { NOTHING_SENT } from '../../ports/store/settlement-ports.js';
import { type SqlClient, type SqlDialect, type SqlExecutor, sql } from './sql-client.js';

export interface SqlCancellationStore extends CancellationStore {
  /** Records requested and finalized cancellations and raised floors inside the caller's transaction. */
  writeWithin(
    tx: SqlExecutor,
    requests: readonly CancellationRequest[],
    finalized: readonly { orderId: number; time: number }[],
    floors: ReadonlyMap<string, bigint>,
  ): Promise<void>;
}

/** The cancelled order has no fill waiting for settlement (the partial indexes serve both lookups). */
const NO_FILL_IN_FLIGHT = `NOT EXISTS (SELECT 1 FROM settlements s WHERE s.maker_order_id = c.order_id AND s.status IN ('pending', 'submitted'))
  AND NOT EXISTS (SELECT 1 FROM settlements s WHERE s.taker_order_id = c.order_id AND s.status IN ('pending', 'submitted'))`;

/**
 * SQL: whether the number in canonical decimal text `a` is below the one in `b` (nonces and
 * floors): shorter is smaller, and equal lengths compare as text.
 */
const decimalBelow = (a: string, b: string) => `(length(${a}) < length(${b}) OR (length(${a}) = length(${b}) AND ${a} < ${b}))`;

/**
 * No fill in flight of an order of the floor's account below the floor: every fill matched before
 * the floor was raised (only such orders can have one).
 */
const NO_FILL_BELOW_FLOOR = `NOT EXISTS (SELECT 1 FROM settlements s JOIN orders o ON o.id IN (s.maker_order_id, s.taker_order_id)
  WHERE s.status IN ('pending', 'submitted') AND o.account = r.account AND ${decimalBelow('o.nonce', 'r.floor')})`;

/** The prepared statements of the cancellation store. */
function cancellationStatements(dialect: SqlDialect) {
  const swapper = (order: string) => dialect.jsonText(`${order}.signed_order`, ['info', 'swapper']);
  return {
    request: sql(
      'INSERT INTO order_cancellations (order_id, reason, requested_at) VALUES (?, ?, ?) ON CONFLICT (order_id) DO NOTHING',
    ),
    finalize: sql('UPDATE order_cancellations SET finalized_at = ? WHERE order_id = ?'),
    // Never lowers a floor on its way: a lower one (an older raise on the reactor, indexed late)
    // would go out in its place and leave the orders between the two open on the reactor.
    floor: sql(
      `INSERT INTO nonce_floor_relays (account, floor, tx_hash) VALUES (?, ?, NULL)
       ON CONFLICT (account) DO UPDATE SET floor = excluded.floor, tx_hash = NULL
       WHERE NOT ${decimalBelow('excluded.floor', 'nonce_floor_relays.floor')}`,
    ),
    unsent: sql<{ order_id: number; order_hash: string; swapper: string }>(
      `SELECT c.order_id, o.order_hash, ${swapper('o')} AS swapper
       FROM order_cancellations c JOIN orders o ON o.id = c.order_id
       WHERE c.tx_hash IS NULL AND (c.finalized_at IS NULL OR c.lost_at IS NOT NULL) AND ${NO_FILL_IN_FLIGHT}
         AND ${swapper('o')} NOT IN ${dialect.jsonList('text')}
       ORDER BY c.order_id LIMIT ?`,
    ),
    sent: sql(`UPDATE order_cancellations SET tx_hash = ? WHERE order_id IN ${dialect.jsonList('integer')}`),
    byHash: sql<{ order_id: number; confirmed_tx_hash: string | null }>(
      `SELECT c.order_id, c.confirmed_tx_hash FROM order_cancellations c JOIN orders o ON o.id = c.order_id
       WHERE o.order_hash = ?`,
    ),
    confirm: sql('UPDATE order_cancellations SET confirmed_tx_hash = ?, confirmed_block = ?, lost_at = NULL WHERE order_id = ?'),
    // A cancellation made final before its confirmation was lost: its history names the new one.
    canceledEventHash: sql("UPDATE order_events SET tx_hash = ? WHERE order_id = ? AND type = 'CANCELED'"),
    finalizable: sql<{ order_id: number; reason: string; confirmed_tx_hash: string }>(
      `SELECT c.order_id, c.reason, c.confirmed_tx_hash FROM order_cancellations c
       WHERE c.finalized_at IS NULL AND c.confirmed_tx_hash IS NOT NULL AND ${NO_FILL_IN_FLIGHT}
       ORDER BY c.order_id`,
    ),
    unsentFloors: sql<{ account: string; floor: string; swapper: string | null }>(
      `SELECT r.account, r.floor,
         (SELECT ${swapper('o')} FROM orders o WHERE o.account = r.account ORDER BY o.id DESC LIMIT 1)
           AS swapper
       FROM nonce_floor_relays r WHERE r.tx_hash IS NULL AND ${NO_FILL_BELOW_FLOOR}`,
    ),
    floorSent: sql('UPDATE nonce_floor_relays SET tx_hash = ?, mined_block = NULL WHERE account = ? AND floor = ?'),
    floorMined: sql('UPDATE nonce_floor_relays SET mined_block = ? WHERE account = ? AND floor = ?'),
    // The history of a final cancellation confirmed in a lost block names no transaction until it is confirmed again.
    forgetCanceledEventHashes: sql(
      `UPDATE order_events SET tx_hash = NULL
       WHERE type = 'CANCELED' AND order_id IN (SELECT order_id FROM order_cancellations WHERE confirmed_block > ?)`,
    ),
    // Confirmed in a block the chain lost, or sent and never confirmed: send again.
    requeueCancellations: sql(
      `UPDATE order_cancellations
       SET tx_hash = NULL, confirmed_tx_hash = NULL, confirmed_block = NULL,
         lost_at = CASE WHEN finalized_at IS NULL THEN NULL ELSE CAST(? AS BIGINT) END
       WHERE (confirmed_block > ?) OR (tx_hash IS NOT NULL AND confirmed_tx_hash IS NULL AND finalized_at IS NULL)`,
    ),
    requeueFloors: sql(
      `UPDATE nonce_floor_relays SET tx_hash = NULL, mined_block = NULL
       WHERE tx_hash <> '${NOTHING_SENT}' AND (mined_block > ? OR (tx_hash IS NOT NULL AND mined_block IS NULL))`,
    ),
  };
}

/**
 * Cancellations and nonce floors on their way to the reactor. A cancellation goes out only once
 * the order's fills matched before it are settled, and a floor only once the fills of the orders
 * below it are, so the reactor never refuses a fill an order made while it was open.
 */
export function sqlCancellationStore(db: SqlClient): SqlCancellationStore {
  const statements = cancellationStatements(db.dialect);
  return {
    async writeWithin(tx, requests, finalized, floors) {
      await Promise.all([
        ...requests.map(({ orderId, reason, time }) => tx.run(statements.request, orderId, reason, time)),
        ...finalized.map(({ orderId, time }) => tx.run(statements.finalize, time, orderId)),
        ...[...floors].map(([account, floor]) => tx.run(statements.floor, account, floor.toString())),
      ]);
    },
    async unsent(limit, skipped = []) {
      return (await db.all(statements.unsent, JSON.stringify(skipped), limit)).map((row) => ({
        orderId: row.order_id,
        orderHash: row.order_hash,
        swapper: row.swapper,
      }));
    },
    async markSent(orderIds, txHash) {
      // Not waiting for the disk: a mark a crash of the machine takes back only sends the
      // cancellation again, which the relay confirms from the reactor's state.
      await db.relaxedTransaction((tx) => tx.run(statements.sent, txHash, JSON.stringify(orderIds)));
    },
    async confirm(orderHash, txHash, block) {
      // Not waiting for the disk: it records what the chain holds, which a crash of the machine
      // takes back only with the cursor after it (the log is written in order), so the block is
      // indexed again; the final cancellation that follows it is a durable commit. Idempotent, so
      // READ COMMITTED is enough where several writers run.
      return db.relaxedTransaction(async (tx) => {
        const row = await tx.get(statements.byHash, orderHash);
        if (row === undefined) return false;
        if (row.confirmed_tx_hash === null) {
          await tx.run(statements.confirm, txHash, Number(block), row.order_id);
          await tx.run(statements.canceledEventHash, txHash, row.order_id);
        }
        return true;
      });
    },
    async finalizable() {
      return (await db.all(statements.finalizable)).map((row) => ({
        orderId: row.order_id,
        reason: row.reason,
        txHash: row.confirmed_tx_hash,
      }));
    },
    async unsentFloors() {
      return (await db.all(statements.unsentFloors)).map((row) => ({
        account: row.account,
        floor: BigInt(row.floor),
        swapper: row.swapper,
      }));
    },
    async markFloorSent(account, floor, txHash) {
      await db.run(statements.floorSent, txHash, account, floor.toString());
    },
    async markFloorMined(account, floor, block) {
      await db.run(statements.floorMined, Number(block), account, floor.toString());
    },
    async requeueLostAfter(block, now) {
      return db.transaction(async (tx) => {
        await tx.run(statements.forgetCanceledEventHashes, Number(block));
        return {
          cancellations: await tx.run(statements.requeueCancellations, now, Number(block)),
          floors: await tx.run(statements.requeueFloors, Number(block)),
        };
      });
    },
  };
}
