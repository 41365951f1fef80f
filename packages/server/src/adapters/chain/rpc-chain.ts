import { isDeployedCode, PartialFillLimitOrderReactor, TestToken } from '@dex/contracts';
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type HttpTransport,
  http,
  type PublicClient,
} from 'viem';
import type { ChainSettings } from './chain-config.js';
import type { ChainContext } from './chain-context.js';
import { keepAliveFetch } from './keep-alive-fetch.js';
import { operatorAccount } from './operator-account.js';

export class ChainSetupError extends Error {
  override readonly name = 'ChainSetupError';
}

/** The chain's definition, the JSON-RPC transport and a reading client for a node. */
export interface RpcClients {
  readonly chain: Chain;
  readonly transport: HttpTransport;
  readonly publicClient: PublicClient<HttpTransport, Chain>;
}

export function rpcClients(config: Pick<ChainSettings, 'chainId' | 'network'>, rpcUrl: string): RpcClients {
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'HBAR', symbol: 'HBAR', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { batch: { wait: 0 }, fetchFn: keepAliveFetch() });
  return { chain, transport, publicClient: createPublicClient({ chain, transport, pollingInterval: 250 }) };
}

/**
 * Connects to a deployed reactor over JSON-RPC (the ledger's relay in production) and checks,
 * before anything is settled, that the node serves the configured chain id and that the reactor
 * holds this build's code and names this operator; each refusal names the variable to fix.
 */
export async function openRpcChain(config: ChainSettings & { chain: { kind: 'rpc' } }): Promise<ChainContext> {
  const { chain, transport, publicClient } = rpcClients(config, config.chain.rpcUrl);
  const { operatorKey } = config.chain;
  if (operatorKey === null) throw new ChainSetupError('settling on CHAIN=rpc needs OPERATOR_PRIVATE_KEY');
  const operator = createWalletClient({ chain, transport, account: operatorAccount(operatorKey) });
  const chainId = await publicClient.getChainId().catch((error: unknown) => {
    throw new ChainSetupError(`CHAIN_RPC_URL ${config.chain.rpcUrl} does not answer as a JSON-RPC node (eth_chainId)`, {
      cause: error,
    });
  });
  if (chainId !== config.chainId)
    throw new ChainSetupError(`CHAIN_RPC_URL serves chain ${chainId}, not CHAIN_ID ${config.chainId}`);
  const reactor = getAddress(config.reactorAddress as Address);
  const code = await publicClient.getCode({ address: reactor });
  if (code === undefined || code === '0x')
    throw new ChainSetupError(`REACTOR_ADDRESS ${reactor} has no code on chain ${chainId}`);
  if (!isDeployedCode(code, PartialFillLimitOrderReactor)) {
    throw new ChainSetupError(
      `REACTOR_ADDRESS ${reactor} holds other code than this build's reactor (deploy it with dex-operator chain deploy)`,
    );
  }
  const named = await publicClient.readContract({
    address: reactor,
    abi: PartialFillLimitOrderReactor.abi,
    functionName: 'operator',
  });
  if (named !== operator.account.address) {
    throw new ChainSetupError(`the reactor at ${reactor} names operator ${named}, not the key in OPERATOR_PRIVATE_KEY`);
  }
  const wrappedNative = await checkedWrappedNative(publicClient, config.wrappedNativeAddress);
  const headAtStart = await publicClient.getBlockNumber();
  return {
    public: publicClient,
    operator,
    reactor,
    chainId,
    headAtStart,
    // Without the block of its deployment: a reactor deployed before this service first ran has no fills of it to find earlier.
    indexFrom: config.chain.indexFrom ?? headAtStart,
    amm: null,
    wrappedNative,
    devnet: null,
    close: async () => {},
  };
}

/** The configured wrapped native token, once it is a token of 8 decimals (tinybar) on the chain. */
async function checkedWrappedNative(
  client: PublicClient<HttpTransport, Chain>,
  configured: string | null,
): Promise<Address | null> {
  if (configured === null) return null;
  const address = getAddress(configured);
  const decimals = await client
    .readContract({ address, abi: TestToken.abi, functionName: 'decimals' })
    .catch((error: unknown) => {
      throw new ChainSetupError(`WRAPPED_NATIVE_ADDRESS ${address} does not answer as a token (decimals())`, { cause: error });
    });
  if (decimals !== 8) throw new ChainSetupError(`WRAPPED_NATIVE_ADDRESS ${address} has ${decimals} decimals, not 8 (tinybar)`);
  return address;
}
