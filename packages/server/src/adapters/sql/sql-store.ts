import type { Store } from '../../ports/store/ports.js';
import { sqlAccountKeyStore } from './account-key-store.js';
import { sqlAmmStore } from './amm-store.js';
import { sqlApiKeyStore } from './api-key-store.js';
import { sqlBookStore } from './book-store.js';
import { sqlCancelAfterStore } from './cancel-after-store.js';
import { sqlCancellationStore } from './cancellation-store.js';
import { sqlCandleStore } from './candle-store.js';
import { sqlExpiredOrderStore } from './expired-order-store.js';
import { sqlFarmStore } from './farm-store.js';
import { sqlFeeOverrideStore } from './fee-override-store.js';
import { sqlNonceStore } from './nonce-store.js';
import { sqlOrderStore } from './order-store.js';
import { sqlPoolCandleStore } from './pool-candle-store.js';
import { sqlPoolStore } from './pool-store.js';
import { sqlSettlementProofStore } from './settlement-proof-store.js';
import { sqlSettlementStore } from './settlement-store.js';
import { type SqlClient, sql } from './sql-client.js';
import { sqlStakingStore } from './staking-store.js';
import { sqlTermsAcceptanceStore } from './terms-acceptance-store.js';
import { sqlTokenStore } from './token-store.js';
import { sqlTradeStore } from './trade-store.js';

const ping = sql('SELECT 1');

/** The store over a migrated database, whichever engine its client speaks to. */
export function sqlStore(client: SqlClient): Store {
  let open = true;
  const trades = sqlTradeStore(client);
  const settlements = sqlSettlementStore(client);
  const cancellations = sqlCancellationStore(client);
  return {
    tokens: sqlTokenStore(client),
    books: sqlBookStore(client),
    trades,
    settlements,
    cancellations,
    expiredOrders: sqlExpiredOrderStore(client),
    orders: sqlOrderStore(client, trades, settlements, cancellations),
    nonces: sqlNonceStore(client),
    feeOverrides: sqlFeeOverrideStore(client),
    accountKeys: sqlAccountKeyStore(client),
    apiKeys: sqlApiKeyStore(client),
    candles: sqlCandleStore(client),
    pools: sqlPoolStore(client),
    farms: sqlFarmStore(client),
    amm: sqlAmmStore(client),
    poolCandles: sqlPoolCandleStore(client),
    staking: sqlStakingStore(client),
    cancelAfter: sqlCancelAfterStore(client),
    settlementProofs: sqlSettlementProofStore(client),
    termsAcceptances: sqlTermsAcceptanceStore(client),
    changeMarker: () => client.changeMarker(),
    async ping() {
      await client.get(ping);
    },
    async close() {
      if (!open) return;
      open = false;
      await client.close();
    },
  };
}
