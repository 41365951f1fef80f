import type { FeeOverride, FeeOverrideStore } from '../../ports/store/order-ports.js';
import type { SqlDatabase } from './driver.js';

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

/** Per-account fee rates that replace a book's own, set by the operator. */
export function sqliteFeeOverrideStore(db: SqlDatabase): FeeOverrideStore {
  const statements = {
    get: db.prepare<FeeOverrideRow>('SELECT * FROM fee_overrides WHERE account = ? AND book_id = ?'),
    set: db.prepare(
      `INSERT INTO fee_overrides (account, book_id, taker_fee_pips, maker_fee_pips, updated_at)
       VALUES (@account, @bookId, @takerFeePips, @makerFeePips, @updatedAt)
       ON CONFLICT (account, book_id) DO UPDATE SET taker_fee_pips = excluded.taker_fee_pips,
         maker_fee_pips = excluded.maker_fee_pips, updated_at = excluded.updated_at`,
    ),
    clear: db.prepare('DELETE FROM fee_overrides WHERE account = ? AND book_id = ?'),
    list: db.prepare<FeeOverrideRow>('SELECT * FROM fee_overrides ORDER BY account, book_id'),
  };
  return {
    async get(account, bookId) {
      const row = statements.get.get(account, bookId);
      return row === undefined ? undefined : toOverride(row);
    },
    async set(override) {
      statements.set.run({ ...override });
    },
    async clear(account, bookId) {
      return statements.clear.run(account, bookId).changes > 0;
    },
    async list() {
      return statements.list.all().map(toOverride);
    },
  };
}
