import type { PostgresMigration } from './schema.js';

/** Version 9 (SQLite version 19): who accepted which version of the web terms and risk notice. */
export const TERMS_ACCEPTANCES_MIGRATION: PostgresMigration = {
  version: 9,
  name: 'terms acceptances: who accepted which version of the web terms and risk notice, and when (SQLite version 19)',
  sql: `
      CREATE TABLE terms_acceptances (
        account TEXT NOT NULL,
        document TEXT NOT NULL,
        version TEXT NOT NULL,
        text_sha256 TEXT NOT NULL,
        accepted_at BIGINT NOT NULL,
        client_address TEXT,
        PRIMARY KEY (account, document, version, text_sha256)
      );
      CREATE INDEX terms_acceptances_by_time ON terms_acceptances (accepted_at);
    `,
};
