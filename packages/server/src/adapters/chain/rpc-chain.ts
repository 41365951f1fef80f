import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { type Address, createPublicClient, createWalletClient, defineChain, getAddress, http } from 'viem';
import type { ChainSettings } from './chain-config.js';
import type { ChainContext } from './chain-context.js';
import { operatorAccount } from './operator-account.js';

export class ChainSetupError extends Error {
  override readonly name = 'ChainSetupError';
}

/**
 * Connects to a deployed reactor over JSON-RPC (the ledger's relay in production) and checks,
 * before anything is settled, that the node serves the configured chain id and that the reactor
 * exists and names this operator.
 */
export async function openRpcChain(config: ChainSettings & { chain: { kind: 'rpc' } }): Promise<ChainContext> {
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'HBAR', symbol: 'HBAR', decimals: 18 },
    rpcUrls: { default: { http: [config.chain.rpcUrl] } },
  });
  const transport = http(config.chain.rpcUrl, { batch: { wait: 0 } });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 250 });
  const operator = createWalletClient({ chain, transport, account: operatorAccount(config.chain.operatorKey) });
  const chainId = await publicClient.getChainId();
  if (chainId !== config.chainId)
    throw new ChainSetupError(`CHAIN_RPC_URL serves chain ${chainId}, not CHAIN_ID ${config.chainId}`);
  const reactor = getAddress(config.reactorAddress as Address);
  const named = await publicClient.readContract({
    address: reactor,
    abi: PartialFillLimitOrderReactor.abi,
    functionName: 'operator',
  });
  if (named !== operator.account.address) {
    throw new ChainSetupError(`the reactor at ${reactor} names operator ${named}, not the key in OPERATOR_PRIVATE_KEY`);
  }
  const headAtStart = await publicClient.getBlockNumber();
  return {
    public: publicClient,
    operator,
    reactor,
    chainId,
    headAtStart,
    // A reactor deployed before this service first ran has no fills of it to find earlier.
    indexFrom: headAtStart,
    amm: null,
    devnet: null,
    close: async () => {},
  };
}
