import { MAX_UINT256 } from '@dex/core';
import { AppError } from '../../domain/errors.js';
import type { NonceStore } from '../../ports/store/order-ports.js';
import { type SqlClient, type SqlDialect, sql } from './sql-client.js';

function nonceStatements(dialect: SqlDialect) {
  return {
    account: sql<{ last_nonce: string; nonce_floor: string }>(
      'SELECT last_nonce, nonce_floor FROM trading_accounts WHERE account = ?',
    ),
    // Takes the account's row first (created if new): concurrent issuers of one account queue on it.
    claim: sql<{ last_nonce: string; nonce_floor: string }>(
      `INSERT INTO trading_accounts (account, last_nonce, nonce_floor) VALUES (?, '0', '0')
       ON CONFLICT (account) DO UPDATE SET last_nonce = trading_accounts.last_nonce
       RETURNING last_nonce, nonce_floor`,
    ),
    upsertLast: sql(
      `INSERT INTO trading_accounts (account, last_nonce, nonce_floor) VALUES (@account, @last, '0')
       ON CONFLICT (account) DO UPDATE SET last_nonce = excluded.last_nonce`,
    ),
    insertNonce: sql('INSERT INTO order_nonces (account, nonce, expires_at, book_id) VALUES (?, ?, ?, ?)'),
    unused: sql<{ nonce: string; book_id: number | string | null }>(
      `SELECT n.nonce, n.book_id FROM order_nonces n
       WHERE n.account = ? AND n.nonce IN ${dialect.jsonList('text')}
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.account = n.account AND o.nonce = n.nonce)`,
    ),
    purge: sql('DELETE FROM order_nonces WHERE expires_at < ?'),
  };
}

function maxOf(...values: bigint[]): bigint {
  return values.reduce((max, value) => (value > max ? value : max));
}

/** Nonces of /orders/build and each account's nonce floor. Nonces are uint256, kept as decimal text. */
export function sqlNonceStore(db: SqlClient): NonceStore {
  const statements = nonceStatements(db.dialect);
  const account = (accountId: string) => db.get(statements.account, accountId);
  return {
    async issue(accountId, bookIds, atLeast, expiresAt) {
      const count = bookIds.length;
      // A build does not wait for the disk: the issue survives kill -9 at once, and a save's
      // durable commit makes every write before it durable (the log is written in order), so an
      // order is never stored on a nonce that a crash of the machine could take back. What such a
      // crash may lose is nonces of orders not yet saved, which their saves then refuse (build
      // again); the time floor keeps later nonces above them.
      return db.relaxedTransaction(async (tx) => {
        const claimed = await tx.get(statements.claim, accountId);
        const first = maxOf(BigInt(claimed?.last_nonce ?? '0') + 1n, atLeast, BigInt(claimed?.nonce_floor ?? '0'));
        if (first + BigInt(count) - 1n > MAX_UINT256) throw new AppError('NONCES_EXHAUSTED');
        const issued = Array.from({ length: count }, (_, index) => first + BigInt(index));
        await Promise.all(
          issued.map((nonce, index) =>
            tx.run(statements.insertNonce, accountId, nonce.toString(), expiresAt, bookIds[index] ?? null),
          ),
        );
        await tx.run(statements.upsertLast, { account: accountId, last: (first + BigInt(count) - 1n).toString() });
        return issued;
      });
    },
    async unused(accountId, nonces) {
      const listed = JSON.stringify(nonces.map((nonce) => nonce.toString()));
      const rows = await db.all(statements.unused, accountId, listed);
      return new Map(rows.map((row) => [BigInt(row.nonce), row.book_id === null ? null : Number(row.book_id)]));
    },
    async lastIssued(accountId) {
      return BigInt((await account(accountId))?.last_nonce ?? '0');
    },
    async floor(accountId) {
      return BigInt((await account(accountId))?.nonce_floor ?? '0');
    },
    async purgeExpired(now) {
      return db.run(statements.purge, now);
    },
  };
}
