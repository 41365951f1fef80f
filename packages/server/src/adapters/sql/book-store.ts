import { makerCharge } from '../../domain/markets/default-fees.js';
import type { BookRecord, BookStatus, NewBook } from '../../domain/markets/market-records.js';
import type { BookStore } from '../../ports/store/ports.js';
import { type SqlClient, sql } from './sql-client.js';
import { conflict } from './store-conflict.js';

interface BookRow {
  id: number;
  base_token_id: string;
  quote_token_id: string;
  status: BookStatus;
  is_amm_enabled: number;
  is_halted: number;
  tick_step: string;
  size_step: string;
  lot_size: string;
  min_notional: string;
  taker_fee_pips: number;
  maker_fee_pips: number;
  maker_rebate_pips: number;
  cap_fraction_pips: number;
  created_at: number;
  updated_at: number;
}

function toBook(row: BookRow): BookRecord {
  return {
    id: row.id,
    baseTokenId: row.base_token_id,
    quoteTokenId: row.quote_token_id,
    status: row.status,
    isAmmEnabled: row.is_amm_enabled === 1,
    isHalted: row.is_halted === 1,
    tickStep: row.tick_step,
    sizeStep: row.size_step,
    lotSize: row.lot_size,
    minNotional: row.min_notional,
    takerFeePips: row.taker_fee_pips,
    makerFeePips: row.maker_fee_pips - row.maker_rebate_pips,
    capFractionPips: row.cap_fraction_pips,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const statements = {
  listBooks: sql<BookRow>('SELECT * FROM books ORDER BY id'),
  getBook: sql<BookRow>('SELECT * FROM books WHERE id = ?'),
  insertBook: sql<{ id: number }>(
    `INSERT INTO books (base_token_id, quote_token_id, status, is_amm_enabled, is_halted, tick_step, size_step,
         lot_size, min_notional, taker_fee_pips, maker_fee_pips, maker_rebate_pips, cap_fraction_pips,
         created_at, updated_at)
       VALUES (@baseTokenId, @quoteTokenId, 'OPEN', @isAmmEnabled, 0, @tickStep, @sizeStep,
         @lotSize, @minNotional, @takerFeePips, @makerFeePips, @makerRebatePips, @capFractionPips,
         @now, @now)
       RETURNING id`,
  ),
  updateBook: sql(
    `UPDATE books SET status = coalesce(@status, status), is_halted = coalesce(@isHalted, is_halted), updated_at = @now
       WHERE id = @id`,
  ),
};

/** The order books: their tokens, grid, fees and state. */
export function sqlBookStore(db: SqlClient): BookStore {
  return {
    async list() {
      return (await db.all(statements.listBooks)).map(toBook);
    },
    async insert(book: NewBook, now: number) {
      let id: number;
      try {
        const { feePips, rebatePips } = makerCharge(book.makerFeePips);
        const row = await db.get(statements.insertBook, {
          ...book,
          makerFeePips: feePips,
          makerRebatePips: rebatePips,
          isAmmEnabled: book.isAmmEnabled ? 1 : 0,
          now,
        });
        id = Number(row?.id);
      } catch (error) {
        conflict(db, error, {
          duplicate: `a book for ${book.baseTokenId}/${book.quoteTokenId} already exists`,
          reference: `book ${book.baseTokenId}/${book.quoteTokenId} names an unknown token`,
          rule: `book ${book.baseTokenId}/${book.quoteTokenId} breaks a rule of the store (two different tokens, fees -1000000 to 1000000 pips)`,
        });
      }
      return toBook((await db.get(statements.getBook, id)) as BookRow);
    },
    async update(id, change, now) {
      const isHalted = change.isHalted === undefined ? null : change.isHalted ? 1 : 0;
      const changed = await db.run(statements.updateBook, { id, status: change.status ?? null, isHalted, now });
      if (changed === 0) return undefined;
      return toBook((await db.get(statements.getBook, id)) as BookRow);
    },
  };
}
