import type { NonceStore } from '../order-ports.js';
import { inTransaction, type SqlDatabase } from './driver.js';

/** Nonces of /orders/build and each account's nonce floor. Nonces are uint256, kept as decimal text. */
export function sqliteNonceStore(db: SqlDatabase): NonceStore {
  const statements = {
    account: db.prepare<{ last_nonce: string; nonce_floor: string }>(
      'SELECT last_nonce, nonce_floor FROM trading_accounts WHERE account = ?',
    ),
    upsertLast: db.prepare(
      `INSERT INTO trading_accounts (account, last_nonce, nonce_floor) VALUES (@account, @last, '0')
       ON CONFLICT (account) DO UPDATE SET last_nonce = excluded.last_nonce`,
    ),
    insertNonce: db.prepare('INSERT INTO order_nonces (account, nonce, expires_at, order_id) VALUES (?, ?, ?, NULL)'),
    unused: db.prepare<{ nonce: string }>('SELECT nonce FROM order_nonces WHERE account = ? AND nonce = ? AND order_id IS NULL'),
    purge: db.prepare('DELETE FROM order_nonces WHERE order_id IS NULL AND expires_at < ?'),
  };

  return {
    async issue(account, count, atLeast, expiresAt) {
      return inTransaction(db, () => {
        const last = BigInt(statements.account.get(account)?.last_nonce ?? '0');
        let next = last >= atLeast ? last + 1n : atLeast;
        const issued: bigint[] = [];
        for (let index = 0; index < count; index++, next++) {
          statements.insertNonce.run(account, next.toString(), expiresAt);
          issued.push(next);
        }
        statements.upsertLast.run({ account, last: (next - 1n).toString() });
        return issued;
      });
    },
    async unused(account, nonces) {
      const found = new Set<bigint>();
      for (const nonce of nonces) if (statements.unused.get(account, nonce.toString()) !== undefined) found.add(nonce);
      return found;
    },
    async floor(account) {
      return BigInt(statements.account.get(account)?.nonce_floor ?? '0');
    },
    async purgeExpired(now) {
      return statements.purge.run(now).changes;
    },
  };
}
