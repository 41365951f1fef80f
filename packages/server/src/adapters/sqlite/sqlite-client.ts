import type { SqlClient, SqlDialect, SqlExecutor, SqlParameters, SqlText } from '../sql/sql-client.js';
import { rollBack, type SqlDatabase, type SqlStatement } from './driver.js';

const SQLITE: SqlDialect = {
  name: 'sqlite',
  jsonList: () => '(SELECT value FROM json_each(?))',
  jsonRows: (columns) =>
    `(SELECT ${columns.map(([name], index) => `json_extract(value, '$[${index}]') AS ${name}`).join(', ')} FROM json_each(?) ORDER BY key)`,
  jsonText: (column, path) => `json_extract(${column}, '$.${path.join('.')}')`,
  greatest: (a, b) => `max(${a}, ${b})`,
  least: (a, b) => `min(${a}, ${b})`,
  keyLocks: null,
};

/**
 * One connection shared by everyone: a transaction holds it until it ends, and statements from
 * outside wait meanwhile, so none of them runs inside another's transaction. Statements run
 * synchronously when the connection is free, so the common case costs no more than before.
 */
class ConnectionTurns {
  private tail: Promise<void> | undefined;

  get busy(): boolean {
    return this.tail !== undefined;
  }

  /** Resolves when the connection is free; the caller holds it until it calls the release. */
  async take(): Promise<() => void> {
    while (this.tail !== undefined) await this.tail;
    let release!: () => void;
    const tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.tail = tail;
    return () => {
      if (this.tail === tail) this.tail = undefined;
      release();
    };
  }

  async idle(): Promise<void> {
    while (this.tail !== undefined) await this.tail;
  }
}

/** Statements compiled once per connection. */
class StatementCache {
  private readonly compiled = new WeakMap<SqlText, SqlStatement<unknown>>();

  constructor(private readonly db: SqlDatabase) {}

  of<Row>(statement: SqlText<Row>): SqlStatement<Row> {
    let prepared = this.compiled.get(statement);
    if (prepared === undefined) {
      prepared = this.db.prepare(statement.text);
      this.compiled.set(statement, prepared);
    }
    return prepared as SqlStatement<Row>;
  }
}

/** Runs statements at once: inside a transaction that holds the connection, or on a free one. */
function directExecutor(cache: StatementCache, open: () => void): SqlExecutor {
  return {
    async run(statement, ...parameters) {
      open();
      return cache.of(statement).run(...parameters).changes;
    },
    async get<Row>(statement: SqlText<Row>, ...parameters: SqlParameters) {
      open();
      return cache.of(statement).get(...parameters);
    },
    async all<Row>(statement: SqlText<Row>, ...parameters: SqlParameters) {
      open();
      return cache.of(statement).all(...parameters);
    },
  };
}

/** The embedded store's SQL client over one SQLite connection. */
export function sqliteClient(db: SqlDatabase): SqlClient {
  const turns = new ConnectionTurns();
  const cache = new StatementCache(db);
  const direct = directExecutor(cache, () => {});
  const dataVersion = db.prepare<{ data_version: number }>('PRAGMA data_version');
  const synchronous = Number(db.prepare<{ synchronous: number }>('PRAGMA synchronous').get()?.synchronous ?? 2);

  /** A statement from outside any transaction: at once when the connection is free, else in its turn. */
  const outside = async <T>(work: () => Promise<T>): Promise<T> => {
    if (!turns.busy) return work();
    const release = await turns.take();
    try {
      return await work();
    } finally {
      release();
    }
  };

  const transaction = async <T>(work: (tx: SqlExecutor) => Promise<T>, relaxed: boolean): Promise<T> => {
    const release = await turns.take();
    let active = true;
    const tx = directExecutor(cache, () => {
      if (!active) throw new Error('a statement ran on a transaction that has ended');
    });
    if (relaxed) db.exec('PRAGMA synchronous = NORMAL');
    try {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(tx);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        rollBack(db, error);
        throw error;
      }
    } finally {
      active = false;
      if (relaxed) db.exec(`PRAGMA synchronous = ${synchronous}`);
      release();
    }
  };

  return {
    dialect: SQLITE,
    run: (statement, ...parameters) => outside(() => direct.run(statement, ...parameters)),
    get: (statement, ...parameters) => outside(() => direct.get(statement, ...parameters)),
    all: (statement, ...parameters) => outside(() => direct.all(statement, ...parameters)),
    transaction: (work) => transaction(work, false),
    relaxedTransaction: (work) => transaction(work, true),
    constraintOf: (error) => db.constraintOf(error),
    changeMarker: () => outside(async () => Number(dataVersion.get()?.data_version)),
    close: async () => {
      await turns.idle();
      db.close();
    },
  };
}
