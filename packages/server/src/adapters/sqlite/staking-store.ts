import type { StakingPoint, StakingStore } from '../../ports/store/amm-ports.js';
import type { SqlDatabase } from './driver.js';

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

/** Reads the SAUCE staking snapshots the AMM store records (one per block that changed the totals). */
export function sqliteStakingStore(db: SqlDatabase): StakingStore {
  const statements = {
    atOrBefore: db.prepare<SnapshotRow>(
      'SELECT at_ms, sauce, xsauce FROM staking_snapshots WHERE at_ms <= ? ORDER BY block_number DESC LIMIT 1',
    ),
    first: db.prepare<SnapshotRow>('SELECT at_ms, sauce, xsauce FROM staking_snapshots ORDER BY block_number LIMIT 1'),
  };
  return {
    async atOrBefore(atMs) {
      const row = statements.atOrBefore.get(atMs);
      return row === undefined ? undefined : toPoint(row);
    },
    async first() {
      const row = statements.first.get();
      return row === undefined ? undefined : toPoint(row);
    },
  };
}
