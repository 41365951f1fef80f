import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openSqliteStore } from '../adapters/sqlite/sqlite-store.js';
import type { Store } from '../ports/store/ports.js';
import { tempDataDir } from './temp-data-dir.js';

/** A fresh folder per test, and the stores the test opened, closed after it. */
export interface TempStores {
  /** The current test's folder. */
  readonly dir: () => string;
  /** The current test's store file (created when first opened). */
  readonly file: () => string;
  /** Opens a SQLite store on `path` (the test's store file by default); it is closed after the test. */
  readonly open: (path?: string) => Promise<Store>;
}

/** Registers the hooks of a suite whose tests open SQLite stores in a temporary folder. */
export function useTempStores(): TempStores {
  let data: ReturnType<typeof tempDataDir> | null = null;
  const opened: Store[] = [];
  beforeEach(() => {
    data = tempDataDir();
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    data?.remove();
    data = null;
  });
  const dir = (): string => {
    if (data === null) throw new Error('temporary stores are used inside a test only');
    return data.dir;
  };
  const file = (): string => join(dir(), 'store.sqlite');
  const open = async (path = file()): Promise<Store> => {
    const store = await openSqliteStore(path);
    opened.push(store);
    return store;
  };
  return { dir, file, open };
}
