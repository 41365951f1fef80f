import { type SqlClient, type SqlDialect, type SqlExecutor, sql } from './sql-client.js';

/**
 * The position in its shard's command log of the last command an engine applied: written in the
 * transaction of the turns that applied it, so a restarted engine follows the log from exactly
 * there. A position never goes back.
 */
export function commandPositionStatements(dialect: SqlDialect) {
  return {
    get: sql<{ seq: number }>('SELECT seq FROM command_positions WHERE shard = ?'),
    advance: sql(
      `INSERT INTO command_positions (shard, seq) VALUES (@shard, @seq)
       ON CONFLICT (shard) DO UPDATE SET seq = ${dialect.greatest('command_positions.seq', 'excluded.seq')}`,
    ),
  };
}

type Statements = ReturnType<typeof commandPositionStatements>;

export async function advancePositions(tx: SqlExecutor, statements: Statements, positions: ReadonlyMap<number, bigint>) {
  for (const [shard, seq] of positions) {
    if (seq > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`command position ${seq} of shard ${shard} is past 2^53`);
    await tx.run(statements.advance, { shard, seq: Number(seq) });
  }
}

export async function commandPosition(db: SqlClient, statements: Statements, shard: number): Promise<bigint> {
  return BigInt((await db.get(statements.get, shard))?.seq ?? 0);
}
