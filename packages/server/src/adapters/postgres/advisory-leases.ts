import postgres from 'postgres';
import type { Lease, Leases } from '../../ports/leases.js';

/** The first key of every lease's advisory lock, so they never meet the locks of other software ("dexl"). */
const LEASE_SPACE = 0x6465786c;
/** How often a holder checks that the server still counts its lock. */
const CHECK_MS = 1_000;

export interface AdvisoryLeasesOptions {
  readonly url: string;
  readonly applicationName?: string;
  /** How often a held lease is checked (ms); default 1 s. */
  readonly checkMs?: number;
}

/**
 * Leases as PostgreSQL session advisory locks, each on a connection of its own: the server frees
 * the lock when that connection ends, so a process killed or cut off loses it within the server's
 * notice of the dead connection. The holder checks its lock every second, on that connection, and
 * reports the lease lost when the check fails or the lock is not there (a reconnection never
 * takes it back silently).
 */
export function advisoryLeases(options: AdvisoryLeasesOptions): Leases {
  return {
    async tryAcquire(name) {
      const sql = postgres(options.url, {
        max: 1,
        onnotice: () => {},
        connect_timeout: 5,
        connection: { application_name: options.applicationName ?? 'dex-exchange lease' },
      });
      const [row] = await sql.unsafe<{ held: boolean }[]>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS held', [
        LEASE_SPACE,
        name,
      ]);
      if (row?.held !== true) {
        await sql.end({ timeout: 1 });
        return undefined;
      }
      const [{ pid } = { pid: 0 }] = await sql.unsafe<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
      return holdLease(sql, name, pid, options.checkMs ?? CHECK_MS);
    },
  };
}

function holdLease(sql: postgres.Sql, name: string, pid: number, checkMs: number): Lease {
  let released = false;
  let reportLoss!: (error: Error) => void;
  const lost = new Promise<Error>((resolve) => {
    reportLoss = resolve;
  });
  const check = async (): Promise<void> => {
    try {
      const [row] = await sql.unsafe<{ held: boolean }[]>(
        `SELECT pg_backend_pid() = $1 AND EXISTS (
           SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = $1 AND classid = $2
             AND objid = hashtext($3)::oid AND granted) AS held`,
        [pid, LEASE_SPACE, name],
      );
      if (row?.held !== true) throw new Error(`the lease "${name}" is no longer held by this process`);
    } catch (error) {
      if (released) return;
      clearInterval(timer);
      reportLoss(error instanceof Error ? error : new Error(String(error)));
      await sql.end({ timeout: 1 }).catch(() => {});
    }
  };
  const timer = setInterval(() => void check(), checkMs);
  timer.unref();
  return {
    lost,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await sql.unsafe('SELECT pg_advisory_unlock($1, hashtext($2))', [LEASE_SPACE, name]).catch(() => {});
      await sql.end({ timeout: 1 });
    },
  };
}
