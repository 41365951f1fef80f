import type { AnvilLocation, DeploymentRecord } from '@dex/contracts';
import type { Network } from '../../domain/network.js';

/**
 * Where fills settle: a devnet node the service starts itself (the embedded default), any EVM
 * JSON-RPC endpoint with a deployed reactor and the operator's key, or nowhere (devnet only).
 */
export type ChainConfig =
  | {
      readonly kind: 'devnet';
      /** Loopback port of the node; 0 picks a free one. */
      readonly port: number;
      /** Seconds between state dumps of the node: what a crash of the node can lose. */
      readonly stateIntervalSeconds: number;
      /** Blocks of history the node keeps (their events included); older ones are forgotten. */
      readonly historyBlocks: number;
      /** Blocks the node mines between restarts that trim its history (its block headers, which it never forgets). */
      readonly compactEveryBlocks: number;
      /**
       * Past blocks whose state the node keeps, in memory, for reads at a past block (the service
       * reads at the head or at a block it just mined); 0: anvil's default, every state, on disk.
       */
      readonly pastStates: number;
      /**
       * How long the node outlives a service killed outright (kill -9) before its watchdog stops it
       * (its state saved): a service restarted within it takes the same node over.
       */
      readonly orphanGraceMs: number;
      /** Where the anvil binary is: `ANVIL_PATH`, else the pinned package, else `PATH`. */
      readonly anvil: AnvilLocation;
      readonly settlement: SettlementConfig;
    }
  | {
      readonly kind: 'rpc';
      readonly rpcUrl: string;
      /** The operator's secp256k1 key (0x + 64 hex); it sends settlements and cancellations. Null on a gateway or an engine of a cluster, which send nothing. */
      readonly operatorKey: `0x${string}` | null;
      /** The block the reactor was deployed in (CHAIN_DEPLOYMENT): its events are searched from there. */
      readonly indexFrom: bigint | null;
      /** What `dex-operator chain deploy` recorded, when CHAIN_DEPLOYMENT names it. */
      readonly deployment: DeploymentRecord | null;
      readonly settlement: SettlementConfig;
    }
  | { readonly kind: 'off' };

export interface SettlementConfig {
  /**
   * Most fills in one settlement transaction. A fill costs about 140k gas (more with an Ed25519
   * signature to check), so the default of 100 fits the default gas limit of 15M.
   */
  readonly batchFills: number;
  /** Gas limit of one settlement transaction; batches are cut to fit it. */
  readonly txGasLimit: number;
  /**
   * Which batches are simulated before they are sent: `always`, or `after-failure` (the first
   * batch, and the next after a batch that failed as a whole). A batch sent as it is lets the
   * reactor refuse the fills it would not settle (`FillRejected`, undone by the indexer): the node
   * executes it once instead of twice.
   */
  readonly simulate: SettlementSimulation;
  /**
   * Whether the operator frees the reactor's record of expired orders (`forgetExpired`, about 15k
   * gas an order): the chain's state then holds only orders that can still trade.
   */
  readonly forgetExpired: boolean;
}

export type SettlementSimulation = 'always' | 'after-failure';

/** What opening the settlement chain reads of the service's configuration. */
export interface ChainSettings {
  readonly network: Network;
  readonly chainId: number;
  /** Where the embedded devnet keeps its state, record and keys. */
  readonly dataDir: string;
  readonly chain: ChainConfig;
  /** The reactor of an RPC chain; null on the embedded devnet, which deploys its own. */
  readonly reactorAddress: string | null;
  readonly signatureDomainName: string;
  readonly signatureDomainVersion: string;
  /** The wrapped native token native-coin books settle in; the embedded devnet installs it, an RPC chain must hold it. */
  readonly wrappedNativeAddress: string | null;
  /** The protocol token (the data API's, SAUCE on the devnet): the embedded devnet's AMM farm mints it. */
  readonly dataApi: { readonly protocolTokenId: string | null };
}
