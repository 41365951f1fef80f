import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../test-support/store-engines.js';
import { tempDataDir } from '../../test-support/temp-data-dir.js';
import { migratePostgres } from '../postgres/postgres-store.js';
import { openDatabase, type SqlDatabase } from '../sqlite/driver.js';
import { migrate } from '../sqlite/sqlite-store.js';

/**
 * The two dialects' schemas are written by hand, each as its own history of migrations (SQLite's
 * nineteen versions; PostgreSQL's first version is SQLite's eleventh at once), and one store code
 * base serves both: so the freshly migrated databases must hold the same tables, columns,
 * nullability, defaults, keys, unique constraints, references and indexes. Each engine describes
 * its database in the same words here (TableShape), with these mappings:
 * - SQLite's INTEGER is PostgreSQL's BIGINT (both 64-bit), TEXT is text; SQLite compares text byte
 *   by byte (no COLLATE), as PostgreSQL does the domain `ctext` (collation "C"), and plain text in
 *   the database's locale;
 * - a primary key's columns are not null (PostgreSQL enforces it; SQLite leaves a rowid table's
 *   key nullable, which the store never uses);
 * - defaults and index conditions without PostgreSQL's casts, `x = ANY (ARRAY[...])` read as
 *   `x IN (...)`.
 * CHECK constraints are not compared: PostgreSQL rewrites their expressions.
 */

/** PostgreSQL's counter of cache changes, what SQLite's `PRAGMA data_version` gives the caches. */
const POSTGRES_ONLY = new Set(['cache_versions']);

/**
 * The one text column PostgreSQL compares in the database's locale, not byte by byte: the name in
 * its migration log, made by the migration runner before version 1 defines `ctext`, and never
 * compared or ordered (its versions are).
 */
const LOCALE_TEXT = new Set(['schema_migrations.name']);

type ColumnType = 'integer' | 'text';
/** How text compares: byte by byte, or in the database's locale; null for integers. */
type Collation = 'bytes' | 'locale' | null;

interface ColumnShape {
  readonly type: ColumnType;
  readonly collation: Collation;
  readonly nullable: boolean;
  readonly default: string | null;
}

interface IndexShape {
  readonly columns: string[];
  readonly unique: boolean;
  readonly where: string | null;
}

interface TableShape {
  readonly columns: Record<string, ColumnShape>;
  readonly primaryKey: string[];
  /** Column lists of the UNIQUE constraints, sorted. */
  readonly unique: string[][];
  /** `column -> table(column)`, sorted. */
  readonly references: string[];
  /** The indexes made by CREATE INDEX, by name. */
  readonly indexes: Record<string, IndexShape>;
}

type SchemaShape = Record<string, TableShape>;

/** An expression as both engines print it: no casts, IN for `= ANY (ARRAY[...])`, no grouping parentheses. */
function plainExpression(text: string): string {
  return text
    .replace(/::[a-z_]+(\[\])?/g, '')
    .replace(/= ANY \(ARRAY\[([^\]]*)\]\)/g, 'IN [$1]')
    .replace(/IN \(([^)]*)\)/g, 'IN [$1]')
    .replace(/[()]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function sqliteType(declared: string): ColumnType {
  if (declared === 'INTEGER') return 'integer';
  if (declared === 'TEXT') return 'text';
  throw new Error(`no mapping for SQLite type ${declared}`);
}

function postgresType(dataType: string): ColumnType {
  if (dataType === 'bigint') return 'integer';
  if (dataType === 'text') return 'text';
  throw new Error(`no mapping for PostgreSQL type ${dataType}`);
}

const sortedLists = (lists: string[][]): string[][] => lists.sort((a, b) => a.join().localeCompare(b.join()));

function sqliteColumn(column: { type: string; notnull: number; dflt_value: string | null; pk: number }): ColumnShape {
  const type = sqliteType(column.type);
  return {
    type,
    collation: type === 'text' ? 'bytes' : null,
    nullable: Number(column.notnull) === 0 && Number(column.pk) === 0,
    default: column.dflt_value === null ? null : plainExpression(column.dflt_value),
  };
}

function sqliteTable(db: SqlDatabase, table: string): TableShape {
  const info = db
    .prepare<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
      `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info('${table}')`,
    )
    .all();
  const columns = Object.fromEntries(info.map((column) => [column.name, sqliteColumn(column)]));
  const primaryKey = info
    .filter((column) => Number(column.pk) > 0)
    .sort((a, b) => Number(a.pk) - Number(b.pk))
    .map((column) => column.name);
  const indexColumns = (index: string) =>
    db
      .prepare<{ name: string }>(`SELECT name FROM pragma_index_info('${index}') ORDER BY seqno`)
      .all()
      .map((row) => row.name);
  const list = db
    .prepare<{ name: string; unique: number; origin: string }>(`SELECT name, "unique", origin FROM pragma_index_list('${table}')`)
    .all();
  const unique = sortedLists(list.filter((index) => index.origin === 'u').map((index) => indexColumns(index.name)));
  const indexes: Record<string, IndexShape> = {};
  for (const index of list.filter((found) => found.origin === 'c')) {
    const sql = db.prepare<{ sql: string }>('SELECT sql FROM sqlite_schema WHERE name = ?').get(index.name)?.sql ?? '';
    const where = /\sWHERE\s([\s\S]*)$/i.exec(sql)?.[1];
    indexes[index.name] = {
      columns: indexColumns(index.name),
      unique: Number(index.unique) === 1,
      where: where === undefined ? null : plainExpression(where),
    };
  }
  const references = db
    .prepare<{ table: string; from: string; to: string }>(`SELECT "table", "from", "to" FROM pragma_foreign_key_list('${table}')`)
    .all()
    .map((reference) => `${reference.from} -> ${reference.table}(${reference.to})`)
    .sort();
  return { columns, primaryKey, unique, references, indexes };
}

function sqliteSchema(db: SqlDatabase): SchemaShape {
  // Every text column compares byte by byte (BINARY) as long as no COLLATE names another order.
  const collated = db.prepare<{ name: string }>("SELECT name FROM sqlite_schema WHERE sql LIKE '%COLLATE%'").all();
  if (collated.length > 0) throw new Error(`a COLLATE in ${collated.map((row) => row.name).join(', ')}: read it here`);
  const tables = db
    .prepare<{ name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all();
  return Object.fromEntries(tables.map(({ name }) => [name, sqliteTable(db, name)]));
}

/** Each table's constraints of one kind, as column lists in key order (pg_constraint). */
async function postgresConstraints(sql: postgres.Sql, kind: 'p' | 'u'): Promise<Map<string, string[][]>> {
  const rows = await sql<{ table: string; columns: string[] }[]>`
    SELECT c.conrelid::regclass::text AS table,
      array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, position)
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.position) AS columns
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE n.nspname = 'public' AND c.contype = ${kind}`;
  const byTable = new Map<string, string[][]>();
  for (const row of rows) byTable.set(row.table, [...(byTable.get(row.table) ?? []), row.columns]);
  return byTable;
}

async function postgresIndexes(sql: postgres.Sql): Promise<Map<string, Record<string, IndexShape>>> {
  const rows = await sql<{ table: string; name: string; unique: boolean; where: string | null; columns: string[] }[]>`
    SELECT t.relname::text AS table, i.relname::text AS name, x.indisunique AS unique,
      pg_get_expr(x.indpred, x.indrelid) AS where,
      array(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, position)
        JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum ORDER BY k.position) AS columns
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`;
  const byTable = new Map<string, Record<string, IndexShape>>();
  for (const row of rows) {
    const shape = { columns: row.columns, unique: row.unique, where: row.where === null ? null : plainExpression(row.where) };
    byTable.set(row.table, { ...byTable.get(row.table), [row.name]: shape });
  }
  return byTable;
}

async function postgresReferences(sql: postgres.Sql): Promise<Map<string, string[]>> {
  const rows = await sql<{ table: string; definition: string }[]>`
    SELECT c.conrelid::regclass::text AS table, pg_get_constraintdef(c.oid) AS definition
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE n.nspname = 'public' AND c.contype = 'f'`;
  const byTable = new Map<string, string[]>();
  for (const { table, definition } of rows) {
    const [, from, target, to] = /^FOREIGN KEY \((\w+)\) REFERENCES (\w+)\((\w+)\)$/.exec(definition) ?? [];
    if (from === undefined) throw new Error(`unexpected reference ${definition}`);
    byTable.set(table, [...(byTable.get(table) ?? []), `${from} -> ${target}(${to})`].sort());
  }
  return byTable;
}

async function postgresSchema(sql: postgres.Sql): Promise<SchemaShape> {
  const columns = await sql<
    {
      table: string;
      name: string;
      data_type: string;
      is_nullable: string;
      column_default: string | null;
      collation: string | null;
    }[]
  >`
    SELECT c.table_name AS table, c.column_name AS name, c.data_type, c.is_nullable, c.column_default,
      (SELECT co.collname::text FROM pg_attribute a JOIN pg_collation co ON co.oid = a.attcollation
        WHERE a.attrelid = (quote_ident(c.table_name))::regclass AND a.attname = c.column_name) AS collation
    FROM information_schema.columns c JOIN information_schema.tables t
      ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
    ORDER BY c.table_name, c.ordinal_position`;
  const [primaryKeys, uniques, indexes, references] = await Promise.all([
    postgresConstraints(sql, 'p'),
    postgresConstraints(sql, 'u'),
    postgresIndexes(sql),
    postgresReferences(sql),
  ]);
  const schema: Record<string, TableShape> = {};
  for (const column of columns) {
    const table = schema[column.table] ?? {
      columns: {},
      primaryKey: primaryKeys.get(column.table)?.[0] ?? [],
      unique: sortedLists(uniques.get(column.table) ?? []),
      references: references.get(column.table) ?? [],
      indexes: indexes.get(column.table) ?? {},
    };
    schema[column.table] = table;
    table.columns[column.name] = {
      type: postgresType(column.data_type),
      collation: column.collation === null ? null : column.collation === 'C' ? 'bytes' : 'locale',
      nullable: column.is_nullable === 'YES',
      default: column.column_default === null ? null : plainExpression(column.column_default),
    };
  }
  return schema;
}

describe.skipIf(!POSTGRES_AVAILABLE)('the SQLite and PostgreSQL schemas', () => {
  const database = usePostgresDatabase('all', 'schema_parity', {
    prepare: async (url) => {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      await migratePostgres(sql).finally(() => sql.end());
    },
  });
  let data: ReturnType<typeof tempDataDir> | null = null;
  let sqlite: SchemaShape;
  let pg: SchemaShape;

  beforeAll(async () => {
    data = tempDataDir();
    const db = await openDatabase(join(data.dir, 'store.sqlite'));
    try {
      migrate(db);
      sqlite = sqliteSchema(db);
    } finally {
      db.close();
    }
    const sql = postgres(database.url(), { max: 1, onnotice: () => {} });
    try {
      pg = await postgresSchema(sql);
    } finally {
      await sql.end();
    }
  });
  afterAll(() => data?.remove());

  it('hold the same tables once migrated, besides the cache counter of PostgreSQL', () => {
    expect(Object.keys(sqlite).sort()).toEqual(
      Object.keys(pg)
        .filter((table) => !POSTGRES_ONLY.has(table))
        .sort(),
    );
  });

  it('give each table the same columns (type, collation, nullability, default), keys, unique constraints, references and indexes', () => {
    for (const [table, shape] of Object.entries(sqlite)) {
      const columns = Object.fromEntries(
        Object.entries(shape.columns).map(([name, column]) => [
          name,
          LOCALE_TEXT.has(`${table}.${name}`) ? { ...column, collation: 'locale' as const } : column,
        ]),
      );
      expect({ table, ...pg[table] }).toEqual({ table, ...shape, columns });
    }
  });
});
