/**
 * Rows written with plain SQL into a store of an older schema version, for migration tests: two
 * tokens, book 1 between them, and trade 7 on it (maker order 3, taker order 4).
 */
export const BOOK_WITH_TRADE_7 = `INSERT INTO tokens (id, evm_address, symbol, name, decimals, due_diligence_complete, is_fee_on_transfer, created_at, updated_at)
    VALUES ('0.0.1', '0x01', 'A', 'A', 8, 1, 0, 1, 1), ('0.0.2', '0x02', 'B', 'B', 6, 1, 0, 1, 1);
  INSERT INTO books (id, base_token_id, quote_token_id, status, is_amm_enabled, is_halted, tick_step, size_step, lot_size,
      min_notional, taker_fee_pips, maker_fee_pips, created_at, updated_at)
    VALUES (1, '0.0.1', '0.0.2', 'OPEN', 1, 0, '0.01', '1', '1', '1', 100, 0, 1, 1);
  INSERT INTO trades (id, book_id, executed_at, price_ticks, price, base_amount, quote_amount, direction, maker_order_id, taker_order_id)
    VALUES (7, 1, 5, 100, '1', '10', '20', 'buy', 3, 4);`;
