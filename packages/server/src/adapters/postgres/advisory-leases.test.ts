import postgres from 'postgres';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Lease } from '../../ports/leases.js';
import { POSTGRES_AVAILABLE, POSTGRES_TEST_URL } from '../../test-support/store-engines.js';
import { advisoryLeases } from './advisory-leases.js';

describe.skipIf(!POSTGRES_AVAILABLE)('leases as PostgreSQL advisory locks', () => {
  const admin = postgres(POSTGRES_TEST_URL, { max: 1, onnotice: () => {} });
  const leases = advisoryLeases({ url: POSTGRES_TEST_URL, checkMs: 100 });
  const held: Lease[] = [];
  /** A name of this run only, so parallel test files never share a lease. */
  const name = (what: string) => `${what} ${process.pid} ${Math.random()}`;
  const acquire = async (lease: string) => {
    const taken = await leases.tryAcquire(lease);
    if (taken !== undefined) held.push(taken);
    return taken;
  };

  afterEach(async () => {
    for (const lease of held.splice(0)) await lease.release();
  });
  afterAll(async () => {
    await admin.end({ timeout: 5 });
  });

  it('is held by one process at a time, and taken by the next once released', async () => {
    const lease = name('writer');
    const first = await acquire(lease);
    expect(first).toBeDefined();
    expect(await acquire(lease)).toBeUndefined();
    expect(await acquire(name('another role'))).toBeDefined();
    await first?.release();
    expect(await acquire(lease)).toBeDefined();
  });

  it('reports itself lost when the server ends its connection, and lets another process take it', async () => {
    const lease = name('settler');
    const first = await acquire(lease);
    const [holder] = await admin.unsafe<{ pid: number }[]>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = hashtext($1)::oid AND granted`,
      [lease],
    );
    await admin.unsafe('SELECT pg_terminate_backend($1)', [holder?.pid ?? 0]);
    const lost = await Promise.race([
      first?.lost,
      new Promise<'still held'>((resolve) => setTimeout(() => resolve('still held'), 3_000)),
    ]);
    expect(lost).toBeInstanceOf(Error);
    expect(await acquire(lease)).toBeDefined();
  });
});
