/** What bench:cancel reads of the server's SQLite store: when each cancellation became final, and by which transaction. */
import type { SqlDatabase } from '../../packages/server/src/adapters/sqlite/driver.js';

const POLL_MS = 20;
const STALL_MS = 30_000;

/** A cancellation asked for through the API, as the store ends it. */
export interface StoredCancel {
  readonly orderId: number;
  /** When the desk took the order off its book (server clock, unix ms). */
  readonly requestedAt: number;
  /** When the desk made it CANCELED after the reactor's confirmation; null while it waits. */
  readonly finalizedAt: number | null;
  /** The operator's cancelFor transaction, and the one whose OrderCancelled event confirmed it. */
  readonly sentTx: string | null;
  readonly confirmedTx: string | null;
  readonly status: string;
  readonly orderHash: string;
  /** The signed order's swapper, the address the relay cancels for. */
  readonly swapper: string;
}

function finalCount(db: SqlDatabase, ids: string): number {
  return (
    db
      .prepare<{ n: number }>(
        `SELECT COUNT(*) AS n FROM order_cancellations
         WHERE finalized_at IS NOT NULL AND order_id IN (SELECT value FROM json_each(?))`,
      )
      .get(ids)?.n ?? 0
  );
}

/** Waits until the cancellations of `orderIds` are all final; gives up at the deadline or when none became final for STALL_MS. */
export async function allFinal(db: SqlDatabase, orderIds: readonly number[], deadline: number): Promise<void> {
  const ids = JSON.stringify(orderIds);
  let last = -1;
  let movedAt = performance.now();
  for (;;) {
    const final = finalCount(db, ids);
    if (final === orderIds.length) return;
    if (final !== last) {
      last = final;
      movedAt = performance.now();
    }
    if (performance.now() > deadline)
      throw new Error(`not final within --time-limit: ${final} of ${orderIds.length} cancellations`);
    if (performance.now() - movedAt > STALL_MS)
      throw new Error(`no cancellation became final for ${STALL_MS / 1000} s: ${final} of ${orderIds.length}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The stored cancellations of `orderIds`, by order id. */
export function storedCancels(db: SqlDatabase, orderIds: readonly number[]): Map<number, StoredCancel> {
  const rows = db
    .prepare<{
      order_id: number;
      requested_at: number;
      finalized_at: number | null;
      tx_hash: string | null;
      confirmed_tx_hash: string | null;
      status: string;
      order_hash: string;
      swapper: string;
    }>(
      `SELECT c.order_id, c.requested_at, c.finalized_at, c.tx_hash, c.confirmed_tx_hash, o.status, o.order_hash,
         json_extract(o.signed_order, '$.info.swapper') AS swapper
       FROM order_cancellations c JOIN orders o ON o.id = c.order_id
       WHERE c.order_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(orderIds));
  return new Map(
    rows.map((row) => [
      row.order_id,
      {
        orderId: row.order_id,
        requestedAt: row.requested_at,
        finalizedAt: row.finalized_at,
        sentTx: row.tx_hash,
        confirmedTx: row.confirmed_tx_hash,
        status: row.status,
        orderHash: row.order_hash,
        swapper: row.swapper,
      },
    ]),
  );
}
