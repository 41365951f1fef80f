import { makerCharge } from '../../domain/markets/default-fees.js';
import type { FeeOverride } from '../../domain/markets/market-records.js';
import type { FeeOverrideStore } from '../../ports/store/order-ports.js';
import { type SqlClient, sql } from './sql-client.js';

interface FeeOverrideRow {
  account: string;
  book_id: number;
  taker_fee_pips: number;
  maker_fee_pips: number;
  maker_rebate_pips: number;
  cap_fraction_pips: number;
  updated_at: number;
}

function toOverride(row: FeeOverrideRow): FeeOverride {
  return {
    account: row.account,
    bookId: row.book_id,
    takerFeePips: row.taker_fee_pips,
    makerFeePips: row.maker_fee_pips - row.maker_rebate_pips,
    capFractionPips: row.cap_fraction_pips,
    updatedAt: row.updated_at,
  };
}

const statements = {
  get: sql<FeeOverrideRow>('SELECT * FROM fee_overrides WHERE account = ? AND book_id = ?'),
  set: sql(
    `INSERT INTO fee_overrides (account, book_id, taker_fee_pips, maker_fee_pips, maker_rebate_pips,
       cap_fraction_pips, updated_at)
     VALUES (@account, @bookId, @takerFeePips, @makerFeePips, @makerRebatePips, @capFractionPips, @updatedAt)
     ON CONFLICT (account, book_id) DO UPDATE SET taker_fee_pips = excluded.taker_fee_pips,
       maker_fee_pips = excluded.maker_fee_pips, maker_rebate_pips = excluded.maker_rebate_pips,
       cap_fraction_pips = excluded.cap_fraction_pips, updated_at = excluded.updated_at`,
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
      const { feePips, rebatePips } = makerCharge(override.makerFeePips);
      await db.run(statements.set, { ...override, makerFeePips: feePips, makerRebatePips: rebatePips });
    },
    async clear(account, bookId) {
      return (await db.run(statements.clear, account, bookId)) > 0;
    },
    async list() {
      return (await db.all(statements.list)).map(toOverride);
    },
  };
}
