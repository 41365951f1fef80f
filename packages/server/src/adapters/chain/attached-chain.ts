import type { AmmDeployment } from '@dex/contracts';
import { type Address, createWalletClient, type Hex } from 'viem';
import type { ChainSettings } from './chain-config.js';
import type { ChainContext } from './chain-context.js';
import type { JsonRpcFetch } from './keep-alive-fetch.js';
import { operatorAccount } from './operator-account.js';
import { rpcClients } from './rpc-chain.js';

/**
 * What another thread needs to work a chain this one opened: its node, its reactor and where
 * reading starts. Plain data, so it crosses to a worker thread; the operator's key does not (the
 * other side reads it where this side did).
 */
export interface ChainAttachment {
  readonly rpcUrl: string;
  readonly reactor: Address;
  readonly headAtStart: bigint;
  readonly indexFrom: bigint;
  readonly amm: AmmDeployment | null;
  readonly wrappedNative: Address | null;
}

/** The chain as far as another thread attaches to it. */
export type AttachableChain = Pick<ChainContext, 'public' | 'reactor' | 'headAtStart' | 'indexFrom' | 'amm' | 'wrappedNative'>;

export function attachmentOf(chain: AttachableChain): ChainAttachment {
  const rpcUrl = chain.public.chain.rpcUrls.default.http[0];
  if (rpcUrl === undefined) throw new Error('the chain client names no JSON-RPC URL');
  const { reactor, headAtStart, indexFrom, amm, wrappedNative } = chain;
  return { rpcUrl, reactor, headAtStart, indexFrom, amm, wrappedNative };
}

/**
 * The chain another thread opened, worked with the operator's key: the same node, reactor and head
 * at start, reached through `fetchFn`. It neither starts nor stops the node; on the devnet the
 * opener restarts it, and tells `restarts` here.
 */
export function attachChain(
  config: Pick<ChainSettings, 'chainId' | 'network'>,
  attachment: ChainAttachment,
  operatorKey: Hex,
  { restarts, fetchFn }: { restarts: NonNullable<ChainContext['restarts']>; fetchFn: JsonRpcFetch },
): ChainContext {
  const { chain, transport, publicClient } = rpcClients(config, attachment.rpcUrl, fetchFn);
  return {
    public: publicClient,
    operator: createWalletClient({ chain, transport, account: operatorAccount(operatorKey) }),
    reactor: attachment.reactor,
    chainId: config.chainId,
    headAtStart: attachment.headAtStart,
    indexFrom: attachment.indexFrom,
    amm: attachment.amm,
    wrappedNative: attachment.wrappedNative,
    // anvil's test methods fund and impersonate: the thread that opened the devnet keeps them.
    devnet: null,
    restarts,
    close: async () => {},
  };
}
