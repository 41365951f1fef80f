import Database from 'better-sqlite3';
import { BACKUP_PAGES_PER_STEP, type ConstraintKind, type SqlDatabase, type SqlStatement } from './driver.js';

/** Opens a file with better-sqlite3 (the driver for Node.js versions without node:sqlite). */
export function openBetterSqlite(file: string): SqlDatabase {
  const db = new Database(file);
  return {
    driver: 'better-sqlite3',
    exec: (sql) => {
      db.exec(sql);
    },
    prepare: <Row>(sql: string) => db.prepare(sql) as unknown as SqlStatement<Row>,
    constraintOf(error: unknown): ConstraintKind | undefined {
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_CONSTRAINT')) return undefined;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'unique';
      return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ? 'foreign-key' : 'other';
    },
    backup: async (file) => {
      // The first step only starts the backup; the callback sets the size of the next, which copies it all.
      await db.backup(file, { progress: () => BACKUP_PAGES_PER_STEP });
    },
    close: () => {
      if (db.open) db.close();
    },
  };
}
