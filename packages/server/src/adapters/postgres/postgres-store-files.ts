import { StoreFileRefusal, type StoreFiles } from '../../ports/store-files.js';

/**
 * A PostgreSQL store is backed up with the server's own tools, which copy it consistently while
 * it runs and restore it into an empty database: the CLI says how instead of copying a file.
 */
export function postgresStoreFiles(): StoreFiles {
  const refuse = (how: string) =>
    Promise.reject(new StoreFileRefusal(`the store is on PostgreSQL (DATABASE_URL): ${how} (docs/backups.md, PostgreSQL)`));
  return {
    backup: () => refuse('back it up with `pg_dump --format=custom --no-owner --file=FILE "$DATABASE_URL"`'),
    restore: () =>
      refuse(
        'stop the service, then `pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$DATABASE_URL" FILE`',
      ),
  };
}
