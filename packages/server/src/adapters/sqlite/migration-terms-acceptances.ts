import type { Migration } from './migrations.js';

/** Version 19: the web application's record of who accepted which text, and when. */
export const TERMS_ACCEPTANCES_MIGRATION: Migration = {
  version: 19,
  name: 'terms acceptances: who accepted which version of the web terms and risk notice, and when',
  sql: `
      CREATE TABLE terms_acceptances (
        account TEXT NOT NULL,
        document TEXT NOT NULL,
        version TEXT NOT NULL,
        text_sha256 TEXT NOT NULL,
        accepted_at INTEGER NOT NULL,
        client_address TEXT,
        PRIMARY KEY (account, document, version, text_sha256)
      ) STRICT;
      CREATE INDEX terms_acceptances_by_time ON terms_acceptances (accepted_at);
    `,
};
