/**
 * Many rows in one statement: the rows go as one JSON parameter that the dialect's `jsonRows`
 * turns back into rows, so a server engine parses, plans and answers once for a whole turn
 * instead of once per row.
 */
import type { JsonColumn, SqlDialect, SqlExecutor, SqlText } from './sql-client.js';

/** One row, its values in the order of the statement's columns; bigints go as decimal text. */
export type JsonRow = readonly (string | number | null)[];

/** The columns' names, comma-separated. */
export function columnNames(columns: readonly JsonColumn[]): string {
  return columns.map(([name]) => name).join(', ');
}

/** `INSERT INTO table (columns) SELECT columns FROM` the rows of one JSON parameter. */
export function insertRowsText(dialect: SqlDialect, table: string, columns: readonly JsonColumn[]): string {
  return `INSERT INTO ${table} (${columnNames(columns)}) SELECT ${columnNames(columns)} FROM ${dialect.jsonRows(columns)} AS r`;
}

/** Runs a statement over `rows` when there are any. */
export function writeRows(tx: SqlExecutor, statement: SqlText, rows: readonly JsonRow[]): Promise<number> {
  return rows.length === 0 ? Promise.resolve(0) : tx.run(statement, JSON.stringify(rows));
}

/**
 * Runs an insert over `rows` that returns each row's `id` (and more); the returned rows in the
 * rows' order. `jsonRows` gives the rows in order and both engines number inserted rows in
 * increasing order, while the order RETURNING answers in is unspecified: so the returned rows,
 * sorted by id, follow the rows.
 */
export async function insertRowsReturning<Row extends { id: number }>(
  tx: SqlExecutor,
  statement: SqlText<Row>,
  rows: readonly JsonRow[],
): Promise<Row[]> {
  if (rows.length === 0) return [];
  const returned = await tx.all(statement, JSON.stringify(rows));
  return returned.sort((a, b) => Number(a.id) - Number(b.id));
}

/** {@link insertRowsReturning} for the ids alone. */
export async function insertRowsReturningIds(
  tx: SqlExecutor,
  statement: SqlText<{ id: number }>,
  rows: readonly JsonRow[],
): Promise<number[]> {
  return (await insertRowsReturning(tx, statement, rows)).map((row) => Number(row.id));
}
