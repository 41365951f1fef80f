import type { CancelAfterStore } from '../../ports/store/cancel-after-ports.js';
import { type SqlClient, sql } from './sql-client.js';

const statements = {
  arm: sql(
    `INSERT INTO cancel_after_switches (account, trigger_at) VALUES (?, ?)
     ON CONFLICT (account) DO UPDATE SET trigger_at = excluded.trigger_at`,
  ),
  disarm: sql('DELETE FROM cancel_after_switches WHERE account = ?'),
  disarmAt: sql('DELETE FROM cancel_after_switches WHERE account = ? AND trigger_at = ?'),
  armed: sql<{ account: string; trigger_at: number }>(
    'SELECT account, trigger_at FROM cancel_after_switches ORDER BY trigger_at, account',
  ),
};

/** One dead-man switch per account, with the time it fires. */
export function sqlCancelAfterStore(db: SqlClient): CancelAfterStore {
  return {
    async arm(account, triggerAt) {
      await db.run(statements.arm, account, triggerAt);
    },
    async disarm(account, triggerAt) {
      if (triggerAt === undefined) await db.run(statements.disarm, account);
      else await db.run(statements.disarmAt, account, triggerAt);
    },
    async armed() {
      return (await db.all(statements.armed)).map((row) => ({ account: row.account, triggerAt: row.trigger_at }));
    },
  };
}
