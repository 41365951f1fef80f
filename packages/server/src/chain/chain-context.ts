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
  close(): Promise<void>;
}
