import { devnetPairId } from '../../../domain/amm/contract-ids.js';
import type { PairLedgerIds } from '../../../ports/pair-ledger-ids.js';

/** The devnet's pair ids: numbered in the factory's order (contract-ids.ts), known at once. */
export const devnetPairLedgerIds: PairLedgerIds = {
  idOf: async ({ poolId }) => devnetPairId(poolId),
};
