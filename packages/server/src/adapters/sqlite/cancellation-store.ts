import type { CancellationRequest } from '../../domain/orders/order-records.js';
import type { CancellationStore } from '../../ports/store/settlement-ports.js';
import { NOTHING_SENT } from '../../ports/store/settlement-ports.js';
import { inTransaction, type SqlDatabase } from './driver.js';

export interface SqliteCancellationStore extends CancellationStore {
  /** Records requested and finalized cancellations and raised floors inside the caller's transaction. */
  writeWithin(
    requests: readonly CancellationRequest[],
    finalized: readonly { orderId: number; time: number }[],
    floors: ReadonlyMap<string, bigint>,
  ): void;
}

/** The cancelled order has no fill waiting for settlement (the partial indexes serve both lookups). */
const NO_FILL_IN_FLIGHT = `NOT EXISTS (SELECT 1 FROM settlements s WHERE s.maker_order_id = c.order_id AND s.status IN ('pending', 'submitted'))
  AND NOT EXISTS (SELECT 1 FROM settlements s WHERE s.taker_order_id = c.order_id AND s.status IN ('pending', 'submitted'))`;

/**
 * No fill in flight of an order of the floor's account below the floor: every fill matched before
 * the floor was raised (only such orders can have one). Nonces are canonical decimal text, so
 * shorter is smaller and equal lengths compare as text.
 */
const NO_FILL_BELOW_FLOOR = `NOT EXISTS (SELECT 1 FROM settlements s JOIN orders o ON o.id IN (s.maker_order_id, s.taker_order_id)
  WHERE s.status IN ('pending', 'submitted') AND o.account = r.account
    AND (length(o.nonce) < length(r.floor) OR (length(o.nonce) = length(r.floor) AND o.nonce < r.floor)))`;

/** The prepared statements of the cancellation store. */
function cancellationStatements(db: SqlDatabase) {
  return {
    request: db.prepare('INSERT OR IGNORE INTO order_cancellations (order_id, reason, requested_at) VALUES (?, ?, ?)'),
    finalize: db.prepare('UPDATE order_cancellations SET finalized_at = ? WHERE order_id = ?'),
    floor: db.prepare(
      `INSERT INTO nonce_floor_relays (account, floor, tx_hash) VALUES (?, ?, NULL)
       ON CONFLICT (account) DO UPDATE SET floor = excluded.floor, tx_hash = NULL`,
    ),
    unsent: db.prepare<{ order_id: number; order_hash: string; swapper: string }>(
      `SELECT c.order_id, o.order_hash, json_extract(o.signed_order, '$.info.swapper') AS swapper
       FROM order_cancellations c JOIN orders o ON o.id = c.order_id
       WHERE c.tx_hash IS NULL AND (c.finalized_at IS NULL OR c.lost_at IS NOT NULL) AND ${NO_FILL_IN_FLIGHT}
       ORDER BY c.order_id LIMIT ?`,
    ),
    sent: db.prepare('UPDATE order_cancellations SET tx_hash = ? WHERE order_id IN (SELECT value FROM json_each(?))'),
    byHash: db.prepare<{ order_id: number; confirmed_tx_hash: string | null }>(
      `SELECT c.order_id, c.confirmed_tx_hash FROM order_cancellations c JOIN orders o ON o.id = c.order_id
       WHERE o.order_hash = ?`,
    ),
    confirm: db.prepare(
      'UPDATE order_cancellations SET confirmed_tx_hash = ?, confirmed_block = ?, lost_at = NULL WHERE order_id = ?',
    ),
    finalizable: db.prepare<{ order_id: number; reason: string; confirmed_tx_hash: string }>(
      `SELECT c.order_id, c.reason, c.confirmed_tx_hash FROM order_cancellations c
       WHERE c.finalized_at IS NULL AND c.confirmed_tx_hash IS NOT NULL AND ${NO_FILL_IN_FLIGHT}
       ORDER BY c.order_id`,
    ),
    unsentFloors: db.prepare<{ account: string; floor: string; swapper: string | null }>(
      `SELECT r.account, r.floor,
         (SELECT json_extract(o.signed_order, '$.info.swapper') FROM orders o WHERE o.account = r.account ORDER BY o.id DESC LIMIT 1)
           AS swapper
       FROM nonce_floor_relays r WHERE r.tx_hash IS NULL AND ${NO_FILL_BELOW_FLOOR}`,
    ),
    floorSent: db.prepare('UPDATE nonce_floor_relays SET tx_hash = ?, mined_block = NULL WHERE account = ? AND floor = ?'),
    floorMined: db.prepare('UPDATE nonce_floor_relays SET mined_block = ? WHERE account = ? AND floor = ?'),
    // Confirmed in a block the chain lost, or sent and never confirmed: send again.
    requeueCancellations: db.prepare(
      `UPDATE order_cancellations
       SET tx_hash = NULL, confirmed_tx_hash = NULL, confirmed_block = NULL,
         lost_at = CASE WHEN finalized_at IS NULL THEN NULL ELSE ? END
       WHERE (confirmed_block > ?) OR (tx_hash IS NOT NULL AND confirmed_tx_hash IS NULL AND finalized_at IS NULL)`,
    ),
    requeueFloors: db.prepare(
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
export function sqliteCancellationStore(db: SqlDatabase): SqliteCancellationStore {
  const statements = cancellationStatements(db);
  return {
    writeWithin(requests, finalized, floors) {
      for (const { orderId, reason, time } of requests) statements.request.run(orderId, reason, time);
      for (const { orderId, time } of finalized) statements.finalize.run(time, orderId);
      for (const [account, floor] of floors) statements.floor.run(account, floor.toString());
    },
    async unsent(limit) {
      return statements.unsent
        .all(limit)
        .map((row) => ({ orderId: row.order_id, orderHash: row.order_hash, swapper: row.swapper }));
    },
    async markSent(orderIds, txHash) {
      statements.sent.run(txHash, JSON.stringify(orderIds));
    },
    async confirm(orderHash, txHash, block) {
      const row = statements.byHash.get(orderHash);
      if (row === undefined) return false;
      if (row.confirmed_tx_hash === null) statements.confirm.run(txHash, Number(block), row.order_id);
      return true;
    },
    async finalizable() {
      return statements.finalizable
        .all()
        .map((row) => ({ orderId: row.order_id, reason: row.reason, txHash: row.confirmed_tx_hash }));
    },
    async unsentFloors() {
      return statements.unsentFloors
        .all()
        .map((row) => ({ account: row.account, floor: BigInt(row.floor), swapper: row.swapper }));
    },
    async markFloorSent(account, floor, txHash) {
      statements.floorSent.run(txHash, account, floor.toString());
    },
    async markFloorMined(account, floor, block) {
      statements.floorMined.run(Number(block), account, floor.toString());
    },
    async requeueLostAfter(block, now) {
      return inTransaction(db, () => ({
        cancellations: statements.requeueCancellations.run(now, Number(block)).changes,
        floors: statements.requeueFloors.run(Number(block)).changes,
      }));
    },
  };
}
