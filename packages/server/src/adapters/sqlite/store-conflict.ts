import { StoreConflictError } from '../../ports/store/ports.js';
import type { SqlDatabase } from './driver.js';

/** Maps SQLite constraint failures to a conflict that says which kind of rule was broken. */
export function conflict(
  db: SqlDatabase,
  error: unknown,
  messages: { duplicate: string; reference: string; rule: string },
): never {
  const kind = db.constraintOf(error);
  if (kind === undefined) throw error;
  const message = kind === 'unique' ? messages.duplicate : kind === 'foreign-key' ? messages.reference : messages.rule;
  throw new StoreConflictError(message, { cause: error });
}
