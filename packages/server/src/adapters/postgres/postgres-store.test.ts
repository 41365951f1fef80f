import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { type Store, StoreUnavailableError } from '../../ports/store/ports.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../test-support/store-engines.js';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';
import { testToken } from '../../test-support/tokens.js';
import { migratePostgres, openPostgresStore } from './postgres-store.js';
import { POSTGRES_MIGRATIONS } from './schema.js';

const NOW = Date.UTC(2026, 10, 25, 12);

describe.skipIf(!POSTGRES_AVAILABLE)('the PostgreSQL store', () => {
  const database = usePostgresDatabase('each', 'pg_test');
  const opened: Store[] = [];
  const proxies: TcpProxy[] = [];
  const open = async (url = database.url()) => {
    const store = await openPostgresStore({ url, maxConnections: 2 });
    opened.push(store);
    return store;
  };

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close().catch(() => {});
    for (const proxy of proxies.splice(0)) await proxy.close();
  });

  it('migrates an empty database once, even when several processes open it at the same moment', async () => {
    const stores = await Promise.all([open(), open(), open()]);
    await stores[0]?.tokens.insert(testToken(1), NOW);
    expect((await stores[2]?.tokens.list())?.map((token) => token.id)).toEqual(['0.0.1']);
    const sql = postgres(database.url(), { max: 1, onnotice: () => {} });
    try {
      const rows = await sql.unsafe('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(rows.map((row) => ({ ...row }))).toEqual(
        POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version: String(version), name })),
      );
      expect(await migratePostgres(sql)).toEqual([]);
    } finally {
      await sql.end();
    }
  });

  it('refuses a database whose schema is newer than the build', async () => {
    const sql = postgres(database.url(), { max: 1, onnotice: () => {} });
    try {
      await migratePostgres(sql);
      await sql.unsafe("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', 0)");
    } finally {
      await sql.end();
    }
    await expect(open()).rejects.toThrow(/version 99.*newer/);
  });

  it('orders text byte by byte as SQLite does, whatever the server locale', async () => {
    const store = await open();
    for (const id of [10, 9, 100]) await store.tokens.insert(testToken(id), NOW);
    expect((await store.tokens.list()).map((token) => token.id)).toEqual(['0.0.10', '0.0.100', '0.0.9']);
  });

  it('answers StoreUnavailableError while the server cannot be reached, and serves again by itself after', async () => {
    const url = new URL(database.url());
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
    proxies.push(proxy);
    url.host = `127.0.0.1:${proxy.port}`;
    const store = await open(url.toString());
    await store.tokens.insert(testToken(1), NOW);
    await proxy.cut();
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.tokens.insert(testToken(2), NOW)).rejects.toBeInstanceOf(StoreUnavailableError);
    await proxy.restore();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.tokens.insert(testToken(3), NOW);
    expect((await store.tokens.list()).map((token) => token.id)).toEqual(['0.0.1', '0.0.3']);
  });
});
