import { BACKUP_PAGES_PER_STEP, type ConstraintKind, type SqlDatabase, type SqlStatement } from './driver.js';

/** The subset of `node:sqlite` used here (its types are not in @types/node for Node 20). */
interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement<unknown>;
  close(): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (path: string) => NodeSqliteDatabase;
  /** Node >= 22.16 and >= 23.8 only. */
  backup?: (source: NodeSqliteDatabase, path: string, options?: { rate?: number }) => Promise<number>;
}

/** SQLite extended result codes of the constraint failures we tell apart. */
const UNIQUE = new Set([2067, 1555]); // SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY
const FOREIGN_KEY = 787; // SQLITE_CONSTRAINT_FOREIGNKEY
const CONSTRAINT = 19; // SQLITE_CONSTRAINT, the primary code of all of them

/** Opens a file with Node's built-in SQLite, or answers undefined when this Node.js has none. */
export async function openNodeSqlite(file: string): Promise<SqlDatabase | undefined> {
  let sqlite: NodeSqliteModule;
  try {
    sqlite = (await import('node:sqlite' as string)) as NodeSqliteModule;
  } catch {
    return undefined;
  }
  const db = new sqlite.DatabaseSync(file);
  return {
    driver: 'node:sqlite',
    exec: (sql) => db.exec(sql),
    prepare: <Row>(sql: string) => db.prepare(sql) as SqlStatement<Row>,
    constraintOf(error: unknown): ConstraintKind | undefined {
      const code = (error as { errcode?: unknown } | null)?.errcode;
      if (typeof code !== 'number' || (code & 0xff) !== CONSTRAINT) return undefined;
      if (UNIQUE.has(code)) return 'unique';
      return code === FOREIGN_KEY ? 'foreign-key' : 'other';
    },
    backup: async (file) => {
      if (sqlite.backup !== undefined) {
        await sqlite.backup(db, file, { rate: BACKUP_PAGES_PER_STEP });
        return;
      }
      // node:sqlite before its backup(): VACUUM INTO writes the same consistent snapshot, in one read transaction.
      db.prepare('VACUUM INTO ?').run(file);
    },
    close: () => db.close(),
  };
}
