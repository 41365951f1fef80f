/**
 * The one SQL surface the store is written against, so the same store code runs on the embedded
 * SQLite file and on PostgreSQL. Statements are written once in the subset both understand, with
 * `?` or `@name` parameters; the few constructs that differ come from the client's `dialect`.
 */

export type SqlValue = string | number | bigint | null;
export type SqlParameters = readonly SqlValue[] | [Readonly<Record<string, SqlValue>>];

/** A statement's text, compiled by each client once (a prepared statement per connection). */
export interface SqlText<Row = unknown> {
  readonly text: string;
  /** Phantom: the row type the statement returns. */
  readonly row?: Row;
}

/**
 * A select list of `columns` that reads each of `wide` as its decimal text: 64-bit integers such as
 * price ticks, which a driver would round if it read them as numbers beyond 2^53.
 */
export function selectList(columns: readonly string[], wide: readonly string[]): string {
  return columns.map((name) => (wide.includes(name) ? `CAST(${name} AS TEXT) AS ${name}` : name)).join(', ');
}

/** Declares a statement; the client compiles and caches it on first use. */
export function sql<Row = unknown>(text: string): SqlText<Row> {
  return { text };
}

/** Runs statements: the client itself (each statement on its own) or one transaction. */
export interface SqlExecutor {
  /** Runs a statement that returns no rows; resolves to the number of rows it changed. */
  run(statement: SqlText, ...parameters: SqlParameters): Promise<number>;
  get<Row>(statement: SqlText<Row>, ...parameters: SqlParameters): Promise<Row | undefined>;
  all<Row>(statement: SqlText<Row>, ...parameters: SqlParameters): Promise<Row[]>;
}

/** Which kind of rule a failed write broke, independent of the engine's error shape. */
export type ConstraintKind = 'unique' | 'foreign-key' | 'other';

/** A column of `jsonRows`: its name, and whether it holds integers or text. */
export type JsonColumn = readonly [name: string, type: 'integer' | 'text'];

/** The SQL that differs between the engines. */
export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /** A subquery of the values of a JSON array bound as one text parameter (`?`), as integers or text. */
  jsonList(type: 'integer' | 'text'): string;
  /**
   * A subquery of the rows of a JSON array of arrays bound as one text parameter (`?`), in array
   * order, each position a column named and typed by `columns`: many rows in one statement.
   */
  jsonRows(columns: readonly JsonColumn[]): string;
  /** The text at a path of a JSON object kept in a text column. */
  jsonText(column: string, path: readonly string[]): string;
  /** The larger (or smaller) of two values of a row. */
  greatest(a: string, b: string): string;
  least(a: string, b: string): string;
  /**
   * A statement that locks, until its transaction ends, each text of a JSON array bound as one
   * parameter, always in one order so two transactions cannot deadlock on them; null where one
   * writer at a time is the rule anyway (SQLite).
   */
  readonly keyLocks: SqlText | null;
}

/** The client of one database: statements outside a transaction, and transactions. */
export interface SqlClient extends SqlExecutor {
  readonly dialect: SqlDialect;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. `work`
   * must use `tx` alone (never the client) and touch nothing but the database, because a client
   * may run it again when the engine asks for a retry (a serialization failure).
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * A transaction whose commit does not wait for the disk: it survives a crash of the process at
   * once and reaches the disk within moments, so only a crash of the machine may lose it. For work
   * made of statements that are atomic on their own (an upsert that adds to a count): an engine
   * with several writers may run it below SERIALIZABLE, so that writers adding to one row queue
   * on its lock instead of failing one another.
   */
  relaxedTransaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** The kind of constraint an error reports, or undefined for any other error. */
  constraintOf(error: unknown): ConstraintKind | undefined;
  /** Changes whenever another connection committed a change that caches follow. */
  changeMarker(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Statements started now and awaited later, after other awaits: their failures are observed at
 * once (an unobserved rejection would stop the process) and still reach whoever awaits them.
 */
export function started<T>(statements: readonly Promise<T>[]): Promise<T>[] {
  for (const statement of statements) statement.catch(() => {});
  return [...statements];
}
