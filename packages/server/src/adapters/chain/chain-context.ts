import type { AmmDeployment, DevnetClients } from '@dex/contracts';
import type { Account, Address, Chain, HttpTransport, PublicClient, WalletClient } from 'viem';

/** The settlement chain as the service uses it: reads, the operator's wallet and the reactor. */
export interface ChainContext {
  readonly public: PublicClient<HttpTransport, Chain>;
  /** Sends settlements and cancellations; never logged. */
  readonly operator: WalletClient<HttpTransport, Chain, Account>;
  readonly reactor: Address;
  readonly chainId: number;
  /** Head block when the service connected, before it sent anything: what reconciliation trusts. */
  readonly headAtStart: bigint;
  /** First block the indexer reads when it has no cursor yet. */
  readonly indexFrom: bigint;
  /**
   * The AMM beside the reactor (pair factory, router, farm, SAUCE staking): deployed by the embedded
   * devnet on its first boot; on a chain reached over RPC, null (pools are not read there yet).
   */
  readonly amm: AmmDeployment | null;
  /** The wrapped native token native-coin books settle in (WHBAR on the devnet), null: none. */
  readonly wrappedNative: Address | null;
  /** anvil's test methods, on the embedded devnet only (funding and impersonation). */
  readonly devnet: DevnetClients | null;
  /**
   * On the embedded devnet: tells when the service started its node again, with the head the
   * restored chain had then; nothing recorded after that head is on it.
   */
  readonly restarts?: { subscribe(listener: (head: bigint) => void): void };
  close(): Promise<void>;
}
