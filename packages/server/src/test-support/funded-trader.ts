import { TestToken } from '@dex/contracts';
import type { Address } from 'viem';
import { DevnetIssuer } from '../adapters/chain/devnet/devnet-issuer.js';
import type { Trader, TraderHost } from './trader.js';

/** Gives a trader 1,000 whole units of every devnet token on the settlement chain, and the reactor allowance to trade them. */
export async function fund(host: TraderHost, trader: Trader): Promise<Trader> {
  const chain = host.services.chain;
  if (!chain) throw new Error('funding needs the devnet chain (CHAIN=devnet)');
  return fundBy(DevnetIssuer.of(chain), host, trader);
}

/** {@link fund} with the given issuer: a process apart from the settler's reaches the devnet chain through its record. */
export async function fundBy(issuer: DevnetIssuer, host: TraderHost, trader: Trader): Promise<Trader> {
  const tokens = await host.services.store.tokens.list();
  await issuer.fund(
    trader.swapper,
    tokens.map((token) => ({ token: token.evmAddress, amount: 1_000n * 10n ** BigInt(token.decimals) })),
  );
  return trader;
}

/** What `owner` holds of a devnet token on the settlement chain, in raw units. */
export function tokenBalance(host: TraderHost, token: string, owner: string): Promise<bigint> {
  const chain = host.services.chain;
  if (!chain) throw new Error('balances need the devnet chain (CHAIN=devnet)');
  return chain.public.readContract({
    address: token as Address,
    abi: TestToken.abi,
    functionName: 'balanceOf',
    args: [owner as Address],
  });
}
