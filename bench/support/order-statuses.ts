/** How accounts' orders end in the server's SQLite store: counts by status and reason, and a wait until none is open. */
import type { SqlDatabase } from '../../packages/server/src/adapters/sqlite/driver.js';

const POLL_MS = 50;
const STALL_MS = 30_000;

/** Orders of `accounts` by "STATUS" or "STATUS REASON" (a cancellation's), e.g. "CANCELED USER". */
export function statusCounts(db: SqlDatabase, accounts: readonly string[]): Map<string, number> {
  const rows = db
    .prepare<{ status: string; reason: string | null; n: number }>(
      `SELECT status, reason, COUNT(*) AS n FROM orders
       WHERE account IN (SELECT value FROM json_each(?)) GROUP BY status, reason`,
    )
    .all(JSON.stringify(accounts));
  return new Map(rows.map((row) => [row.reason === null ? row.status : `${row.status} ${row.reason}`, row.n]));
}

function openCount(db: SqlDatabase, accounts: readonly string[]): number {
  const counts = statusCounts(db, accounts);
  return (counts.get('OPEN') ?? 0) + (counts.get('PARTIALLY_FILLED') ?? 0);
}

/**
 * Waits until none of the accounts' orders is open: with a settlement chain a cancelled order
 * stays open until the reactor confirms its cancellation. Gives up at the deadline or when
 * nothing moved for STALL_MS.
 */
export async function noneOpen(db: SqlDatabase, accounts: readonly string[], deadline: number): Promise<void> {
  let last = -1;
  let movedAt = performance.now();
  for (;;) {
    const open = openCount(db, accounts);
    if (open === 0) return;
    if (open !== last) {
      last = open;
      movedAt = performance.now();
    }
    if (performance.now() > deadline) throw new Error(`${open} orders still open at --time-limit`);
    if (performance.now() - movedAt > STALL_MS) throw new Error(`${open} orders stayed open for ${STALL_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
