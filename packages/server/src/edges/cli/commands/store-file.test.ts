import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUY, SELL } from '@dex/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../adapters/sqlite/sqlite-store.js';
import { operatorIo } from '../../../composition/operator-wiring.js';
import type { Network } from '../../../domain/network.js';
import type { Store } from '../../../ports/store/ports.js';
import {
  dataGet,
  type Harness,
  issueApiKey,
  ManualClock,
  runOperatorOn,
  seedBookOneDepth,
  startHarness,
  Trader,
  tempDataDir,
  tradeOnBookOne,
  until,
} from '../../../test-support/harness.js';
import type { Run } from '../../../test-support/operator-cli.js';
import { runOperator } from '../operator.js';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const data = tempDataDir();
  cleanups.push(data.remove);
  return data.dir;
}

async function harness(env: Record<string, string> = {}, clock = new ManualClock()): Promise<Harness> {
  const h = await startHarness(env, { clock });
  cleanups.push(() => h.close());
  return h;
}

/**
 * The operator CLI on `store` in `dataDir`, as `npm run cli` runs it: with the store's file, whose
 * connection it owns (and a restore closes) unless it is a running service's.
 */
function cli(store: Store, dataDir: string, options: { owned?: boolean; network?: Network; clock?: ManualClock } = {}) {
  const network = options.network ?? 'devnet';
  return async (...argv: string[]): Promise<Run> => {
    const out: string[] = [];
    const err: string[] = [];
    const io = operatorIo({
      store,
      network,
      clock: options.clock ?? new ManualClock(),
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      storeFile: { path: join(dataDir, `${network}.sqlite`), owned: options.owned ?? false },
    });
    const code = await runOperator(argv, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}

/** Restores `backup` into `dataDir` as `npm run cli -- restore` does: the CLI opens the store, the restore closes it. */
async function restoreInto(dataDir: string, backup: string): Promise<Run> {
  const store = await openSqliteStore(join(dataDir, 'devnet.sqlite'));
  try {
    return await cli(store, dataDir, { owned: true })('restore', '--from', backup);
  } finally {
    await store.close();
  }
}

/** What the restored service must serve again: resting orders, book depth, trade tape and an API key's count. */
async function served(h: Harness, keyId: number) {
  const usage = JSON.parse((await runOperatorOn(h, 'apikey', 'usage', String(keyId), '--json')).out) as { requests: number };
  return {
    open: (await h.services.store.orders.openOrders()).map((order) => ({
      id: order.id,
      status: order.status,
      hash: order.orderHash,
    })),
    depth: (await h.app.inject({ method: 'GET', url: '/depth/1' })).json(),
    trades: (await h.app.inject({ method: 'GET', url: '/trades/1?limit=100' })).json(),
    requests: usage.requests,
  };
}

describe('backup and restore of the store', () => {
  it("backs up a running service's store, and a service started on the restore serves the same orders, depth, trades and API-key counts", async () => {
    const clock = new ManualClock();
    const h = await harness({}, clock);
    const maker = await seedBookOneDepth(h);
    await tradeOnBookOne(h);
    const { id, key } = await issueApiKey(h, 10);
    for (let index = 0; index < 3; index++) expect((await dataGet(h, '/tokens', key)).status).toBe(200);
    const before = await served(h, id);
    expect(before.open.length).toBeGreaterThan(0);
    expect(before.requests).toBe(3);

    const backup = join(folder(), 'exchange.backup');
    const made = await cli(h.services.store, h.config.dataDir, { clock })('backup', '--to', backup, '--json');
    expect(made.code).toBe(0);
    const summary = JSON.parse(made.out);
    expect(summary).toMatchObject({ file: backup, network: 'devnet', bytes: statSync(backup).size, takenAt: clock.now() });
    expect(summary.rows).toMatchObject({ trades: 3, api_keys: 1 });
    expect(summary.schemaVersion).toBeGreaterThan(0);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    // No temp file stays beside it, and no WAL: the backup is one file.
    expect(readdirSync(join(backup, '..'))).toEqual(['exchange.backup']);

    // What happens after the backup is not in it.
    await maker.limit(1, SELL, 26_000, 10);
    await dataGet(h, '/tokens', key);
    const text = await cli(h.services.store, h.config.dataDir, { clock })('backup', '--to', join(folder(), 'second'));
    expect(text.out).toMatch(
      /^wrote .*second \(\d+ bytes\)\nnetwork devnet, schema version \d+, taken 2026-11-22T12:00:00.000Z\nrows: .*orders \d+.*trades 3/,
    );

    const fresh = folder();
    const restored = await restoreInto(fresh, backup);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toContain(`restored ${join(fresh, 'devnet.sqlite')}`);
    expect(readdirSync(fresh)).toEqual(['devnet.sqlite']);

    const again = await harness({ DATA_DIR: fresh }, clock);
    expect(await served(again, id)).toEqual(before);
    // The count goes on from the restored one.
    expect((await dataGet(again, '/tokens', key)).headers['x-ratelimit-remaining']).toBe('6');
    // The restored book trades on.
    const taker = await seedBookOneDepth(again);
    expect((await taker.limit(1, BUY, 25_100, 10)).status).not.toBe('REJECTED');
  });

  it('takes a consistent copy while the service writes: the restore holds the orders placed before it, whole', async () => {
    const h = await harness();
    const maker = await Trader.secp256k1(h);
    const placed: number[] = [];
    let placing = true;
    const writer = (async () => {
      for (let step = 0; placing && step < 300; step++) placed.push((await maker.limit(1, SELL, 30_000 + step, 10)).id);
    })();
    await until(() => (placed.length >= 5 ? true : undefined), 'five orders placed', 30_000, 10);
    const backup = join(folder(), 'busy.backup');
    const made = await cli(h.services.store, h.config.dataDir)('backup', '--to', backup, '--json');
    placing = false;
    await writer;
    expect(made.code).toBe(0);

    const fresh = folder();
    expect((await restoreInto(fresh, backup)).code).toBe(0);
    const store = await openSqliteStore(join(fresh, 'devnet.sqlite'));
    cleanups.push(() => store.close());
    const restored = (await store.orders.openOrders()).map((order) => order.id);
    expect(restored.length).toBeGreaterThanOrEqual(5);
    expect(restored).toEqual(placed.slice(0, restored.length));
    expect(JSON.parse(made.out).rows.orders).toBe(restored.length);
    for (const id of restored) expect((await store.orders.history(id)).length).toBeGreaterThan(0);
  });

  it('refuses to overwrite a file unless --force, and writes nothing beside it', async () => {
    const h = await harness();
    const dir = folder();
    const target = join(dir, 'taken');
    writeFileSync(target, 'precious');
    const run = cli(h.services.store, h.config.dataDir);
    expect(await run('backup', '--to', target)).toEqual({
      code: 1,
      out: '',
      err: `${target} exists: pass --force to replace it`,
    });
    expect(readdirSync(dir)).toEqual(['taken']);
    expect((await run('backup', '--to', target, '--force')).code).toBe(0);
    expect(statSync(target).size).toBeGreaterThan(8);
    expect(await run('backup')).toMatchObject({ code: 2, err: '--to is required' });
    expect(await run('backup', '--to', join(dir, 'missing', 'file'))).toMatchObject({
      code: 1,
      err: expect.stringContaining('does not exist'),
    });
    expect(await run('backup', '--to', join(h.config.dataDir, 'devnet.sqlite-wal'))).toMatchObject({
      code: 1,
      err: expect.stringContaining('is the store itself'),
    });
  });

  it("refuses to restore a file that is no backup of this network's store, and leaves the store as it was", async () => {
    const h = await harness();
    const dir = folder();
    const notSqlite = join(dir, 'notes.txt');
    writeFileSync(notSqlite, 'not a database, though long enough to look like one '.repeat(100));
    const otherDatabase = join(dir, 'other.sqlite');
    const other = await openSqliteStore(otherDatabase);
    await other.close();
    const testnet = join(dir, 'testnet.backup');
    const testnetDir = folder();
    const testnetStore = await openSqliteStore(join(testnetDir, 'testnet.sqlite'));
    cleanups.push(() => testnetStore.close());
    expect((await cli(testnetStore, testnetDir, { network: 'testnet' })('backup', '--to', testnet)).code).toBe(0);
    const plain = join(dir, 'plain.sqlite');
    writeFileSync(plain, '');
    const target = folder();
    const before = await openSqliteStore(join(target, 'devnet.sqlite'));
    await before.close();
    const size = statSync(join(target, 'devnet.sqlite')).size;

    const cases: [string, string][] = [
      [notSqlite, `${notSqlite} is not a SQLite database`],
      [plain, `${plain} is not a store of this service: it has no schema_migrations table`],
      [otherDatabase, `${otherDatabase} is no backup made by \`backup\`: it does not say which network it is of`],
      [testnet, `${testnet} is a backup of the testnet store; this is the devnet store (NETWORK)`],
      [join(dir, 'absent'), `${join(dir, 'absent')} does not exist or is no file`],
    ];
    for (const [file, message] of cases)
      expect(await restoreInto(target, file), file).toEqual({ code: 1, out: '', err: message });
    expect(readdirSync(target).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(statSync(join(target, 'devnet.sqlite')).size).toBe(size);
    expect(await cli(h.services.store, h.config.dataDir)('restore')).toMatchObject({ code: 2, err: '--from is required' });
  });

  it('refuses to restore while the service runs on the store, which goes on serving', async () => {
    const h = await harness();
    const maker = await seedBookOneDepth(h);
    const backup = join(folder(), 'backup');
    const run = cli(h.services.store, h.config.dataDir);
    expect((await run('backup', '--to', backup)).code).toBe(0);
    // Even the CLI's own connection, closed by the restore, does not hide the service's.
    const own = await openSqliteStore(join(h.config.dataDir, 'devnet.sqlite'));
    cleanups.push(() => own.close());
    const refused = await cli(own, h.config.dataDir, { owned: true })('restore', '--from', backup);
    expect(refused).toEqual({
      code: 1,
      out: '',
      err: `the store ${join(h.config.dataDir, 'devnet.sqlite')} is open by another process: stop the service (and any operator command) first`,
    });
    expect(existsSync(join(h.config.dataDir, 'devnet.sqlite-wal'))).toBe(true);
    expect(readdirSync(h.config.dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect((await maker.limit(1, SELL, 26_000, 10)).status).toBe('ACTIVE');
  });

  it('restores into the DATA_DIR of a stopped service, whose restart serves the store as the backup had it', async () => {
    const clock = new ManualClock();
    const h = await harness({}, clock);
    const maker = await seedBookOneDepth(h);
    const backup = join(folder(), 'backup');
    expect((await cli(h.services.store, h.config.dataDir)('backup', '--to', backup)).code).toBe(0);
    const before = (await h.services.store.orders.openOrders()).map((order) => order.id);
    await maker.limit(1, SELL, 26_000, 10);
    await tradeOnBookOne(h);
    await h.restart(async () => {
      expect((await restoreInto(h.config.dataDir, backup)).code).toBe(0);
    });
    expect((await h.services.store.orders.openOrders()).map((order) => order.id)).toEqual(before);
    expect(await h.services.store.trades.latest(1)).toBeUndefined();
  });
});
