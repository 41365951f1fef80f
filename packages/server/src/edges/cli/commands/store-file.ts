import type { StoreFiles, StoreSnapshot } from '../../../ports/store-files.js';
import { StoreFileRefusal } from '../../../ports/store-files.js';
import type { OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { need } from '../operator-options.js';

function storeFilesOf(io: OperatorIo): StoreFiles {
  if (io.storeFiles === undefined)
    throw new StoreFileRefusal('backup and restore need the store file: run them with `npm run cli`');
  return io.storeFiles;
}

/** The lines of a snapshot: where, how large, which schema, and the rows of every table that has any. */
function describeSnapshot(verb: string, snapshot: StoreSnapshot): string {
  const rows = Object.entries(snapshot.rows)
    .filter(([, count]) => count > 0)
    .map(([table, count]) => `${table} ${count}`)
    .join(', ');
  return [
    `${verb} ${snapshot.file} (${snapshot.bytes} bytes)`,
    `network ${snapshot.network}, schema version ${snapshot.schemaVersion}, taken ${new Date(snapshot.takenAt).toISOString()}`,
    `rows: ${rows === '' ? 'none' : rows}`,
  ].join('\n');
}

/** `backup --to FILE [--force]`: an online copy of the store, safe while the service writes to it. */
export const backupCommand: OperatorCommand = {
  group: 'backup',
  actions: [''],
  synopsis: '--to FILE [--force]  (a consistent copy of the live store)',
  async run({ values, print }, io) {
    const snapshot = await storeFilesOf(io).backup(need(values, 'to'), { force: values.force === true });
    print(snapshot, describeSnapshot('wrote', snapshot));
    return 0;
  },
};

/** `restore --from FILE`: puts a backup in the store's place while the service is stopped. */
export const restoreCommand: OperatorCommand = {
  group: 'restore',
  actions: [''],
  // A restore into a DATA_DIR without a store is how a store moves to a new machine.
  store: 'made',
  synopsis: '--from FILE  (replaces the store with a backup; stop the service first)',
  async run({ values, print }, io) {
    const snapshot = await storeFilesOf(io).restore(need(values, 'from'));
    print(
      snapshot,
      `${describeSnapshot('restored', snapshot)}\nthe service migrates it, if it must, and catches up with the chain at its next start`,
    );
    return 0;
  },
};
