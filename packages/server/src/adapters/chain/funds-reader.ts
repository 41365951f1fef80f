import { TestToken } from '@dex/contracts';
import { type Address, getAddress } from 'viem';
import type { FundsReader, Holding } from '../../ports/funds.js';
import type { ChainContext } from './chain-context.js';

/**
 * Reads balances and reactor allowances of ERC-20 tokens (the ledger's tokens answer the same
 * calls). Reads issued together go out as one JSON-RPC batch.
 */
export class ChainFundsReader implements FundsReader {
  constructor(private readonly chain: ChainContext) {}

  async holdings(owner: string, tokens: readonly string[]): Promise<Map<string, Holding>> {
    const account = getAddress(owner);
    const read = (token: string, functionName: 'balanceOf' | 'allowance') =>
      this.chain.public.readContract({
        address: getAddress(token) as Address,
        abi: TestToken.abi,
        functionName,
        args: functionName === 'balanceOf' ? [account] : [account, this.chain.reactor],
      } as Parameters<ChainContext['public']['readContract']>[0]) as Promise<bigint>;
    const unique = [...new Set(tokens.map((token) => token.toLowerCase()))];
    const holdings = await Promise.all(
      unique.map(async (token) => {
        const [balance, allowance] = await Promise.all([read(token, 'balanceOf'), read(token, 'allowance')]);
        return [token, { balance, allowance }] as const;
      }),
    );
    return new Map(holdings);
  }
}
