import { createPublicClient, erc20Abi, getAddress, http } from 'viem';
import type { ChainTokenFacts, ReadChainToken } from '../../../ports/chain-tokens.js';

const READ_TIMEOUT_MS = 10_000;

/** Reads token contracts through a node (CHAIN_RPC_URL) for the operator CLI's checks. */
export function chainTokenReader(rpcUrl: string): ReadChainToken {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: READ_TIMEOUT_MS }) });
  return async (text): Promise<ChainTokenFacts | null> => {
    const address = getAddress(text);
    const code = await client.getCode({ address });
    if (code === undefined || code === '0x') return null;
    try {
      const decimals = await client.readContract({ address, abi: erc20Abi, functionName: 'decimals' });
      const symbol = await client.readContract({ address, abi: erc20Abi, functionName: 'symbol' }).catch(() => null);
      return { decimals, symbol };
    } catch {
      return null;
    }
  };
}
