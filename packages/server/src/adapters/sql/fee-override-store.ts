import type { FeeOverride, FeeOverrideStore } from '../../ports/store/order-ports.js';
import { type SqlClient, sql } from './sql-client.js';

interface FeeOverrideRow {
  account: string;
  book_id: number;
  taker_fee_pips: number;
  maker_fee_pips: number;
  updated_at: number;
}

function toOverride(row: FeeOverrideRow): FeeOverride {
  return {
    account: row.account,
    bookId: row.book_id,
    takerFeePips: row.taker_fee_pips,
    makerFeePips: row.maker_fee_pips,
    updatedAt: row.updated_at,
  };
}

const statements = {
  get: sql<FeeOverrideRow>('SELECT * FROM fee_overrides WHERE account = ? AND book_id = ?'),
  set: sql(
    `INSERT INTO fee_overrides (account, book_id, taker_fee_pips, maker_fee_pips, updated_at)
     VALUES (@account, @bookId, @takerFeePips, @makerFeePips, @updatedAt)
     ON CONFLICT (account, book_id) DO UPDATE SET taker_fee_pips = excluded.taker_fee_pips,
       maker_fee_pips = excluded.maker_fee_pips, updated_at = excluded.updated_at`,
  ),
  clear: sql('DELETE FROM fee_overrides WHERE account = ? AND book_id = ?'),
  list: sql<FeeOverrideRow>('SELECT * FROM fee_overrides ORDER BY account, book_id'),
};

/** Per-account fee rates that replace a book's own, set by the operator. */
export function sqlFeeOverrideStore(db: SqlClient): FeeOverrideStore {
  return {
    async get(account, bookId) {
      const row = await db.get(statements.get, account, bookId);
      return row === undefined ? undefined : toOverride(row);
    },
    async set(override) {
      await db.run(statements.set, { ...override });
    },
    async clear(account, bookId) {
      return (await db.run(statements.clear, account, bookId)) > 0;
    },
    async list() {
      return (await db.all(statements.list)).map(toOverride);
    },
  };
}
