import type { TermsAcceptance, TermsDocument } from '../../domain/web-terms/terms.js';
import type { TermsAcceptanceStore } from '../../ports/store/terms-ports.js';
import { type SqlClient, sql } from './sql-client.js';

interface AcceptanceRow {
  account: string;
  document: string;
  version: string;
  text_sha256: string;
  accepted_at: number;
  client_address: string | null;
}

const COLUMNS = 'account, document, version, text_sha256, accepted_at, client_address';
const ORDER = 'ORDER BY accepted_at, account, document, version';

const statements = {
  record: sql(
    `INSERT INTO terms_acceptances (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (account, document, version, text_sha256) DO NOTHING`,
  ),
  all: sql<AcceptanceRow>(`SELECT ${COLUMNS} FROM terms_acceptances ${ORDER}`),
  ofAccount: sql<AcceptanceRow>(`SELECT ${COLUMNS} FROM terms_acceptances WHERE account = ? ${ORDER}`),
};

const acceptanceOf = (row: AcceptanceRow): TermsAcceptance => ({
  account: row.account,
  // Only the service writes the table, with the documents it knows.
  document: row.document as TermsDocument,
  version: row.version,
  textSha256: row.text_sha256,
  acceptedAt: Number(row.accepted_at),
  clientAddress: row.client_address,
});

/** The web application's record of accepted texts, one row per account, text and version. */
export function sqlTermsAcceptanceStore(db: SqlClient): TermsAcceptanceStore {
  return {
    async record(acceptances) {
      // A durable commit (never the relaxed one): the page is told "recorded" only after it.
      await db.transaction(async (tx) => {
        for (const item of acceptances) {
          await tx.run(
            statements.record,
            item.account,
            item.document,
            item.version,
            item.textSha256,
            item.acceptedAt,
            item.clientAddress,
          );
        }
      });
    },
    async list(account) {
      const rows = account === undefined ? await db.all(statements.all) : await db.all(statements.ofAccount, account);
      return rows.map(acceptanceOf);
    },
  };
}
