/** What a backup holds, or what a restore put in place: sizes and counts, never a secret. */
export interface StoreSnapshot {
  /** The file written: the backup, or the store it replaced. */
  readonly file: string;
  readonly bytes: number;
  /** The network whose store it is (NETWORK). */
  readonly network: string;
  /** The newest migration applied to it; an older one is migrated at the next start. */
  readonly schemaVersion: number;
  /** When the backup was taken (ms since the epoch). */
  readonly takenAt: number;
  /** Rows per table, by table name. */
  readonly rows: Readonly<Record<string, number>>;
}

/** Whole-store copies of the service's store: taken while it runs, put back while it does not. */
export interface StoreFiles {
  /** Writes a consistent copy of the live store to `to`; refuses an existing file unless `force`. */
  backup(to: string, options: { readonly force: boolean }): Promise<StoreSnapshot>;
  /** Replaces the store with the backup in `from`, once it is checked; refuses while the store is open elsewhere. */
  restore(from: string): Promise<StoreSnapshot>;
}

/** A backup or restore refused for a reason the operator can fix; printed as is, exit code 1. */
export class StoreFileRefusal extends Error {}
