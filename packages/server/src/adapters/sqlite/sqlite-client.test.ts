import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../test-support/temp-data-dir.js';
import { type SqlClient, type SqlExecutor, sql } from '../sql/sql-client.js';
import { openDatabase, type SqlDatabase } from './driver.js';
import { sqliteClient } from './sqlite-client.js';

const insert = sql('INSERT INTO t (x) VALUES (?)');
const values = sql<{ x: number }>('SELECT x FROM t ORDER BY x');
const synchronous = sql<{ synchronous: number }>('PRAGMA synchronous');

describe('the SQLite client', () => {
  let data: ReturnType<typeof tempDataDir>;
  let db: SqlDatabase;
  let client: SqlClient;

  beforeEach(async () => {
    data = tempDataDir();
    db = await openDatabase(join(data.dir, 'client.sqlite'));
    db.exec('PRAGMA synchronous = FULL; CREATE TABLE t (x INTEGER NOT NULL)');
    client = sqliteClient(db);
  });
  afterEach(async () => {
    await client.close();
    data.remove();
  });

  it('runs a statement from outside after the transaction that holds the connection, never inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const failed = client.transaction(async (tx) => {
      await tx.run(insert, 1);
      await held;
      throw new Error('rolled back');
    });
    const outsideWrite = client.run(insert, 2);
    const outsideRead = client.all(values);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await expect(failed).rejects.toThrow('rolled back');
    expect(await outsideWrite).toBe(1);
    expect(await outsideRead).toEqual([{ x: 2 }]);
    expect(await client.all(values)).toEqual([{ x: 2 }]);
  });

  it('refuses a statement on a transaction that has ended', async () => {
    let kept: SqlExecutor | undefined;
    await client.transaction(async (tx) => {
      kept = tx;
      await tx.run(insert, 1);
    });
    await expect(kept?.run(insert, 2)).rejects.toThrow(/transaction that has ended/);
    expect(await client.all(values)).toEqual([{ x: 1 }]);
  });

  it('commits a relaxed transaction without waiting for the disk, and syncs the ones after it again', async () => {
    await client.relaxedTransaction(async (tx) => {
      expect((await tx.get(synchronous))?.synchronous).toBe(1);
      await tx.run(insert, 1);
    });
    expect((await client.get(synchronous))?.synchronous).toBe(2);
    await client.transaction(async (tx) => {
      expect((await tx.get(synchronous))?.synchronous).toBe(2);
    });
  });
});
