import type { ChainAttachment } from '../adapters/chain/attached-chain.js';
import type { SettlementCommand } from '../application/command-log/desk-commands.js';
import type { Metrics } from '../ports/metrics.js';
import type { Config } from './config.js';

/**
 * What the settlement thread is started with: the configuration, the chain the service opened, and
 * whether its metrics are counted (they are recorded by the service's registry, see `metric`).
 */
export interface SettlementThreadData {
  readonly config: Config;
  readonly chain: ChainAttachment;
  readonly countMetrics: boolean;
  /** The devnet node's restarts begun, counted by the service (see RestartCount). */
  readonly restarts: SharedArrayBuffer;
}

/** The figures settlement reports, and the only ones the thread sends. */
export const SETTLEMENT_METRICS = ['settlementBatch', 'fillReverted', 'settlementLag', 'indexerLag'] as const;
export type SettlementMetric = (typeof SETTLEMENT_METRICS)[number];

/** From the settlement thread to the service. */
export type FromSettlementThread =
  /** Reconciled with the chain and settling. */
  | { readonly type: 'started' }
  /** A verdict for the desk; `id` names the answer, when one is wanted (null: told, not asked). */
  | { readonly type: 'command'; readonly id: number | null; readonly command: SettlementCommand }
  | { readonly type: 'metric'; readonly name: SettlementMetric; readonly args: Parameters<Metrics[SettlementMetric]> };

/** From the service to the settlement thread. */
export type ToSettlementThread =
  | { readonly type: 'answer'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly type: 'answer'; readonly id: number; readonly ok: false; readonly message: string }
  /** The desk stored a commit group; `fills` when it traded. */
  | { readonly type: 'wake'; readonly fills: boolean }
  /** The service started the devnet's node again, from a state whose head is `head`; `upTo` restarts had begun by then. */
  | { readonly type: 'restarted'; readonly head: bigint; readonly upTo: number }
  /** Close everything, then exit. */
  | { readonly type: 'close' };
