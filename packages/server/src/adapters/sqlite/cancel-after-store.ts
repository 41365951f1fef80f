import type { CancelAfterStore } from '../../ports/store/cancel-after-ports.js';
import type { SqlDatabase } from './driver.js';

/** One dead-man switch per account, with the time it fires. */
export function sqliteCancelAfterStore(db: SqlDatabase): CancelAfterStore {
  const statements = {
    arm: db.prepare(
      `INSERT INTO cancel_after_switches (account, trigger_at) VALUES (?, ?)
       ON CONFLICT (account) DO UPDATE SET trigger_at = excluded.trigger_at`,
    ),
    disarm: db.prepare('DELETE FROM cancel_after_switches WHERE account = ?'),
    disarmAt: db.prepare('DELETE FROM cancel_after_switches WHERE account = ? AND trigger_at = ?'),
    armed: db.prepare<{ account: string; trigger_at: number }>(
      'SELECT account, trigger_at FROM cancel_after_switches ORDER BY trigger_at, account',
    ),
  };
  return {
    async arm(account, triggerAt) {
      statements.arm.run(account, triggerAt);
    },
    async disarm(account, triggerAt) {
      if (triggerAt === undefined) statements.disarm.run(account);
      else statements.disarmAt.run(account, triggerAt);
    },
    async armed() {
      return statements.armed.all().map((row) => ({ account: row.account, triggerAt: row.trigger_at }));
    },
  };
}
