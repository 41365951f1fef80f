import type { StakingPoint, StakingStore } from '../../ports/store/amm-ports.js';
import { type SqlClient, sql } from './sql-client.js';

interface SnapshotRow {
  at_ms: number;
  sauce: string;
  xsauce: string;
}

const toPoint = (row: SnapshotRow): StakingPoint => ({
  atMs: Number(row.at_ms),
  sauce: BigInt(row.sauce),
  xsauce: BigInt(row.xsauce),
});

const statements = {
  atOrBefore: sql<SnapshotRow>(
    'SELECT at_ms, sauce, xsauce FROM staking_snapshots WHERE at_ms <= ? ORDER BY block_number DESC LIMIT 1',
  ),
  first: sql<SnapshotRow>('SELECT at_ms, sauce, xsauce FROM staking_snapshots ORDER BY block_number LIMIT 1'),
};

/** Reads the SAUCE staking snapshots the AMM store records (one per block that changed the totals). */
export function sqlStakingStore(db: SqlClient): StakingStore {
  return {
    async atOrBefore(atMs) {
      const row = await db.get(statements.atOrBefore, atMs);
      return row === undefined ? undefined : toPoint(row);
    },
    async first() {
      const row = await db.get(statements.first);
      return row === undefined ? undefined : toPoint(row);
    },
  };
}
