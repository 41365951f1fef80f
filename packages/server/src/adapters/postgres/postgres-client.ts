import postgres from 'postgres';
import { StoreUnavailableError } from '../../ports/store/ports.js';
import {
  type ConstraintKind,
  type SqlClient,
  type SqlDialect,
  type SqlExecutor,
  type SqlParameters,
  type SqlText,
  sql,
} from '../sql/sql-client.js';
import { type CompiledStatement, compileStatement } from './placeholders.js';

const POSTGRES: SqlDialect = {
  name: 'postgres',
  jsonList: (type) =>
    `(SELECT value::${type === 'integer' ? 'bigint' : 'text'} FROM json_array_elements_text(?::text::json) AS list (value))`,
  jsonRows: (columns) =>
    `(SELECT ${columns
      .map(([name, type], index) => `(value ->> ${index})::${type === 'integer' ? 'bigint' : 'text'} AS ${name}`)
      .join(', ')} FROM json_array_elements(?::text::json) WITH ORDINALITY AS list (value, position) ORDER BY position)`,
  jsonText: (column, path) => `(${column}::json #>> '{${path.join(',')}}')`,
  greatest: (a, b) => `greatest(${a}, ${b})`,
  least: (a, b) => `least(${a}, ${b})`,
  // Transaction-level advisory locks in their own space ("dexk"); the sorted subquery feeds the
  // aggregate in key order, so every transaction takes its locks in the same order.
  keyLocks: sql(
    `SELECT count(pg_advisory_xact_lock(${0x6465786b}, key)) AS locked
       FROM (SELECT DISTINCT hashtext(value) AS key FROM json_array_elements_text(?::text::json) AS list (value) ORDER BY key) AS keys`,
  ),
};

/** SQLSTATE classes and codes the store tells apart. */
const CONSTRAINTS: Readonly<Record<string, ConstraintKind>> = {
  '23505': 'unique',
  '23503': 'foreign-key',
  '23514': 'other',
  '23502': 'other',
};
/** A transaction the server gave up so that others could go on: run it again. */
const RETRY_CODES = new Set(['40001', '40P01']);
/**
 * Runs of a transaction refused for a unique key: a concurrent transaction may have taken it
 * between our read and our insert, which PostgreSQL reports as such when the read was of another
 * table. A key that is taken for good stays refused.
 */
const UNIQUE_ATTEMPTS = 3;
/** Out of disk or memory, or the server is shutting down or starting. */
const UNAVAILABLE_CODES = new Set(['53100', '53200', '53300', '57P01', '57P02', '57P03', '08000', '08003', '08006']);
/** Errors of the driver itself when it cannot reach the server. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);
const MAX_ATTEMPTS = 20;
/**
 * Longest wait for one statement, and for one transaction whole: a server out of reach must turn
 * into a prompt StoreUnavailableError (503), never a request that hangs while the driver
 * reconnects. The server ends a transaction left idle longer than the statement deadline, so
 * one given up here cannot commit later.
 */
const STATEMENT_DEADLINE_MS = 5_000;
const TRANSACTION_DEADLINE_MS = 10_000;

/** The work's result, or StoreUnavailableError once `ms` have passed (the work is then given up on). */
async function withDeadline<T>(work: Promise<T>, ms: number, what: string, giveUp: () => void = () => {}): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      giveUp();
      reject(new StoreUnavailableError(`the store did not answer ${what} within ${ms / 1000} s`));
    }, ms);
  });
  // A late failure of the abandoned work is nobody's to hear.
  work.catch(() => {});
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Integers the schema keeps as BIGINT, read as numbers (ids, times, blocks): refused past 2^53. */
function safeNumber(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`a stored integer is not a safe number: ${text}`);
  return value;
}

/** The store port's error for a server that cannot take the statement now, else the error itself. */
function storeError(error: unknown): unknown {
  const code = codeOf(error);
  if (code !== undefined && (UNAVAILABLE_CODES.has(code) || UNREACHABLE.has(code))) {
    return new StoreUnavailableError(`the store could not be reached or could not write: ${String(error)}`, { cause: error });
  }
  return error;
}

type Connection = postgres.Sql | postgres.TransactionSql;

/**
 * Cancels a query given up on: one not sent yet never runs, one running is cancelled on the
 * server. postgres.js 3.4's own `cancel()` drops the promise of its cancel request, whose failure
 * (the server is away) would then stop the process as an unobserved rejection; so its canceller
 * is called here and its failure observed. Without one (another version), nothing is cancelled.
 */
function cancelQuery(query: object): void {
  const internal = query as { canceller?: ((query: object) => Promise<unknown>) | null };
  const canceller = internal.canceller;
  if (typeof canceller !== 'function') return;
  internal.canceller = null;
  canceller(query).catch(() => {});
}

/** Statements compiled for this server once, by their text. */
class Compiled {
  private readonly cache = new WeakMap<SqlText, CompiledStatement>();

  of(statement: SqlText): CompiledStatement {
    let compiled = this.cache.get(statement);
    if (compiled === undefined) {
      compiled = compileStatement(statement.text);
      this.cache.set(statement, compiled);
    }
    return compiled;
  }
}

function executor(connection: Connection, compiled: Compiled): SqlExecutor {
  const query = async (statement: SqlText, parameters: SqlParameters) => {
    const { text, bind } = compiled.of(statement);
    const pending = connection.unsafe(text, bind(parameters) as postgres.ParameterOrJSON<never>[], { prepare: true });
    try {
      return await withDeadline(pending, STATEMENT_DEADLINE_MS, 'a statement', () => cancelQuery(pending));
    } catch (error) {
      throw storeError(error);
    }
  };
  return {
    async run(statement, ...parameters) {
      return (await query(statement, parameters)).count;
    },
    async get<Row>(statement: SqlText<Row>, ...parameters: SqlParameters) {
      return (await query(statement, parameters))[0] as Row | undefined;
    },
    async all<Row>(statement: SqlText<Row>, ...parameters: SqlParameters) {
      return [...(await query(statement, parameters))] as Row[];
    },
  };
}

export interface PostgresClientOptions {
  /** postgres://user@host:port/database */
  readonly url: string;
  /** Most connections at once (default 10). */
  readonly maxConnections?: number;
  /** Shown in pg_stat_activity: which role of the service holds the connection. */
  readonly applicationName?: string;
}

/**
 * The store's SQL client over a PostgreSQL server. Transactions are SERIALIZABLE and run again when
 * the server asks (serialization failure, deadlock), so several processes may write the same store
 * with the guarantees one SQLite writer gives.
 */
export function postgresClient(options: PostgresClientOptions): SqlClient & { readonly sql: postgres.Sql } {
  const sql = postgres(options.url, {
    max: options.maxConnections ?? 10,
    onnotice: () => {},
    connect_timeout: 5,
    // Seconds before a failed connection is tried again: the driver's own grows to 20 s, which
    // would keep answering 503 long after the server is back.
    backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 0.5),
    idle_timeout: 60,
    connection: {
      application_name: options.applicationName ?? 'dex-exchange',
      idle_in_transaction_session_timeout: STATEMENT_DEADLINE_MS,
    },
    types: {
      bigint: { to: 20, from: [20], serialize: (value: bigint | number) => String(value), parse: safeNumber },
    },
  });
  const compiled = new Compiled();
  const outside = executor(sql, compiled);
  const markerStatement: SqlText<{ version: number }> = { text: 'SELECT version FROM cache_versions WHERE id = 1' };

  const transaction = async <T>(work: (tx: SqlExecutor) => Promise<T>, relaxed: boolean): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        // Relaxed work is atomic upserts: READ COMMITTED queues writers on the row, where
        // SERIALIZABLE would fail all but one of the gateways adding to one key's count.
        const isolation = relaxed ? 'isolation level read committed' : 'isolation level serializable';
        const begun = sql.begin(isolation, async (connection) => {
          if (relaxed) await connection.unsafe('SET LOCAL synchronous_commit = off');
          return work(executor(connection, compiled));
        }) as Promise<T>;
        return await withDeadline(begun, TRANSACTION_DEADLINE_MS, 'a transaction');
      } catch (error) {
        const code = codeOf(error);
        const again =
          (code !== undefined && RETRY_CODES.has(code) && attempt < MAX_ATTEMPTS) ||
          (code !== undefined && CONSTRAINTS[code] === 'unique' && attempt < UNIQUE_ATTEMPTS);
        if (!again) throw storeError(error);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 6)));
      }
    }
  };

  return {
    sql,
    dialect: POSTGRES,
    run: outside.run,
    get: outside.get,
    all: outside.all,
    transaction: (work) => transaction(work, false),
    relaxedTransaction: (work) => transaction(work, true),
    constraintOf: (error) => {
      const code = codeOf(error);
      return code === undefined ? undefined : CONSTRAINTS[code];
    },
    changeMarker: async () => Number((await outside.get(markerStatement))?.version ?? 0),
    close: () => sql.end({ timeout: 5 }),
  };
}
