import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { openPostgresStore } from '../adapters/postgres/postgres-store.js';
import type { Store } from '../ports/store/ports.js';
import { useTempStores } from './temp-stores.js';

export type StoreEngine = 'sqlite' | 'postgres';

/** The stores of one test, on one engine: each `open()` is another connection to the same store. */
export interface EngineStores {
  readonly engine: StoreEngine;
  readonly open: () => Promise<Store>;
  /** The environment that points the service at the test's store (none for SQLite: the file in DATA_DIR). */
  readonly env: () => Record<string, string>;
}

/** The server the PostgreSQL runs use: STORE_TEST_POSTGRES_URL, or the local one every machine of ours has. */
export const POSTGRES_TEST_URL = process.env.STORE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether the server answers; asked once per test file. */
async function postgresAnswers(): Promise<boolean> {
  const sql = postgres(POSTGRES_TEST_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql.unsafe('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

export const POSTGRES_AVAILABLE = await postgresAnswers();
if (!POSTGRES_AVAILABLE) {
  console.warn(
    `NOTICE: no PostgreSQL at ${POSTGRES_TEST_URL}; the store's PostgreSQL runs are skipped (set STORE_TEST_POSTGRES_URL)`,
  );
}

/** The URL of another database on the test server. */
export function databaseUrl(database: string): string {
  const url = new URL(POSTGRES_TEST_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export interface TestDatabase {
  readonly name: () => string;
  readonly url: () => string;
}

export interface TestDatabaseOptions {
  /** A database to copy (CREATE DATABASE ... TEMPLATE) instead of starting empty. */
  readonly template?: TestDatabase;
  /** Runs once the database is created (to migrate a template). */
  readonly prepare?: (url: string) => Promise<void>;
  /**
   * An ICU locale (such as 'en-US') for the new database's plain text, which then orders as people
   * read it and not byte by byte, whatever the server's default; ignored with a template (a copy
   * keeps the template's).
   */
  readonly icuLocale?: string;
}

/** Where CREATE DATABASE takes the new database from: the template's copy, or the given locale. */
function createdFrom(options: TestDatabaseOptions): string {
  if (options.template !== undefined) return ` TEMPLATE ${options.template.name()}`;
  if (options.icuLocale !== undefined) return ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale}'`;
  return '';
}

/**
 * A database of its own for each test (`each`) or for the whole file (`all`), created on the test
 * server before and dropped after: empty, or a copy of a template. Call inside a describe that is
 * skipped without PostgreSQL.
 */
export function usePostgresDatabase(scope: 'each' | 'all', label: string, options: TestDatabaseOptions = {}): TestDatabase {
  const admin = postgres(POSTGRES_TEST_URL, { max: 1, onnotice: () => {} });
  let current: string | null = null;
  const name = (): string => {
    if (current === null) throw new Error('the test database exists inside the tests only');
    return current;
  };
  const create = async () => {
    current = `dex_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin.unsafe(`CREATE DATABASE ${current}${createdFrom(options)}`);
    await options.prepare?.(databaseUrl(current));
  };
  const drop = async () => {
    if (current !== null) await admin.unsafe(`DROP DATABASE IF EXISTS ${current} WITH (FORCE)`);
    current = null;
  };
  if (scope === 'each') {
    beforeEach(create);
    afterEach(drop);
  } else {
    beforeAll(create);
  }
  afterAll(async () => {
    await drop();
    await admin.end({ timeout: 5 });
  });
  return { name, url: () => databaseUrl(name()) };
}

/** Migrates a database by opening the store on it once. */
async function migrated(url: string): Promise<void> {
  await (await openPostgresStore({ url })).close();
}

/**
 * A migrated template database for the file's run, and from it a fresh database per test, dropped
 * after the test (and the template after the file).
 */
function usePostgresStores(made: EngineOptions['postgres'] = {}): EngineStores {
  const template = usePostgresDatabase('all', 'store_template', { ...made, prepare: migrated });
  const database = usePostgresDatabase('each', 'store_test', { template });
  const opened: Store[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  return {
    engine: 'postgres',
    env: () => ({ DATABASE_URL: database.url() }),
    async open() {
      const store = await openPostgresStore({ url: database.url(), maxConnections: 4 });
      opened.push(store);
      return store;
    },
  };
}

function useSqliteStores(): EngineStores {
  const stores = useTempStores();
  return { engine: 'sqlite', open: () => stores.open(), env: () => ({}) };
}

export interface EngineOptions {
  /** How the PostgreSQL databases are made: in the server's default locale unless it names another. */
  readonly postgres?: Pick<TestDatabaseOptions, 'icuLocale'>;
}

/**
 * Defines a suite of the store's contract once for each engine: the embedded SQLite file and a
 * PostgreSQL database (skipped, with a notice, where no server answers).
 */
export function describeEachEngine(title: string, define: (stores: EngineStores) => void, options: EngineOptions = {}): void {
  describe(`${title} (SQLite)`, () => define(useSqliteStores()));
  describe.skipIf(!POSTGRES_AVAILABLE)(`${title} (PostgreSQL)`, () => define(usePostgresStores(options.postgres)));
}
