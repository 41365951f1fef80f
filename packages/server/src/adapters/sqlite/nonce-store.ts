import type { NonceStore } from '../../ports/store/order-ports.js';
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
    insertNonce: db.prepare('INSERT INTO order_nonces (account, nonce, expires_at) VALUES (?, ?, ?)'),
    unused: db.prepare<{ nonce: string }>(
      `SELECT n.nonce FROM order_nonces n
       WHERE n.account = ? AND n.nonce IN (SELECT value FROM json_each(?))
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.account = n.account AND o.nonce = n.nonce)`,
    ),
    purge: db.prepare('DELETE FROM order_nonces WHERE expires_at < ?'),
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
      const listed = JSON.stringify(nonces.map((nonce) => nonce.toString()));
      return new Set(statements.unused.all(account, listed).map((row) => BigInt(row.nonce)));
    },
    async lastIssued(account) {
      return BigInt(statements.account.get(account)?.last_nonce ?? '0');
    },
    async floor(account) {
      return BigInt(statements.account.get(account)?.nonce_floor ?? '0');
    },
    async purgeExpired(now) {
      return statements.purge.run(now).changes;
    },
  };
}
