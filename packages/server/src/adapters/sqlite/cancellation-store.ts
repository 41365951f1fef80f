import type { CancellationRequest } from '../../ports/store/order-ports.js';
import type { CancellationStore } from '../../ports/store/settlement-ports.js';
import type { SqlDatabase } from './driver.js';

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
 * Cancellations and nonce floors on their way to the reactor. A cancellation goes out only once
 * the order's fills matched before it are settled, so the reactor never refuses a fill the order
 * made while it was open.
 */
export function sqliteCancellationStore(db: SqlDatabase): SqliteCancellationStore {
  const statements = {
    request: db.prepare('INSERT OR IGNORE INTO order_cancellations (order_id, reason, requested_at) VALUES (?, ?, ?)'),
    finalize: db.prepare('UPDATE order_cancellations SET finalized_at = ? WHERE order_id = ?'),
    floor: db.prepare(
      `INSERT INTO nonce_floor_relays (account, floor, tx_hash) VALUES (?, ?, NULL)
       ON CONFLICT (account) DO UPDATE SET floor = excluded.floor, tx_hash = NULL`,
    ),
    unsent: db.prepare<{ order_id: number; order_hash: string; swapper: string }>(
      `SELECT c.order_id, o.order_hash, json_extract(o.signed_order, '$.info.swapper') AS swapper
       FROM order_cancellations c JOIN orders o ON o.id = c.order_id
       WHERE c.tx_hash IS NULL AND c.finalized_at IS NULL AND ${NO_FILL_IN_FLIGHT} ORDER BY c.order_id LIMIT ?`,
    ),
    sent: db.prepare('UPDATE order_cancellations SET tx_hash = ? WHERE order_id IN (SELECT value FROM json_each(?))'),
    byHash: db.prepare<{ order_id: number; confirmed_tx_hash: string | null }>(
      `SELECT c.order_id, c.confirmed_tx_hash FROM order_cancellations c JOIN orders o ON o.id = c.order_id
       WHERE o.order_hash = ?`,
    ),
    confirm: db.prepare('UPDATE order_cancellations SET confirmed_tx_hash = ? WHERE order_id = ?'),
    finalizable: db.prepare<{ order_id: number; reason: string; confirmed_tx_hash: string }>(
      `SELECT c.order_id, c.reason, c.confirmed_tx_hash FROM order_cancellations c
       WHERE c.finalized_at IS NULL AND c.confirmed_tx_hash IS NOT NULL AND ${NO_FILL_IN_FLIGHT}
       ORDER BY c.order_id`,
    ),
    unsentFloors: db.prepare<{ account: string; floor: string; swapper: string | null }>(
      `SELECT r.account, r.floor,
         (SELECT json_extract(o.signed_order, '$.info.swapper') FROM orders o WHERE o.account = r.account ORDER BY o.id DESC LIMIT 1)
           AS swapper
       FROM nonce_floor_relays r WHERE r.tx_hash IS NULL`,
    ),
    floorSent: db.prepare('UPDATE nonce_floor_relays SET tx_hash = ? WHERE account = ? AND floor = ?'),
  };

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
    async confirm(orderHash, txHash) {
      const row = statements.byHash.get(orderHash);
      if (row === undefined) return false;
      if (row.confirmed_tx_hash === null) statements.confirm.run(txHash, row.order_id);
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
  };
}
