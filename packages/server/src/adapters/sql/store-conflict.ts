import { StoreConflictError } from '../../ports/store/ports.js';
import type { SqlClient } from './sql-client.js';

/** Maps a constraint failure to a conflict that says which kind of rule was broken; rethrows anything else. */
export function conflict(
  client: Pick<SqlClient, 'constraintOf'>,
  error: unknown,
  messages: { duplicate: string; reference: string; rule: string },
): never {
  const kind = client.constraintOf(error);
  if (kind === undefined) throw error;
  const message = kind === 'unique' ? messages.duplicate : kind === 'foreign-key' ? messages.reference : messages.rule;
  throw new StoreConflictError(message, { cause: error });
}
