import type { RunningServer } from '@dex/server';
import { runOperatorOn } from '@dex/server/test-support';
import { createPublicClient, createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { SendOnboardingTransaction } from '../actions/onboard.js';

/**
 * Funds an address on the devnet chain with the operator CLI, without onboarding it (`account fund
 * --no-approve`): gas and 1,000 of every token, no approval to Permit2 or inside it. With
 * `associate: false` (`--no-associate`) the faucet does not associate it either, and funds only
 * the tokens it associated itself.
 */
export async function fundWithoutApprovals(
  server: RunningServer,
  address: string,
  options: { readonly associate?: boolean } = {},
): Promise<void> {
  const flags = options.associate === false ? ['--no-associate'] : [];
  const { code, out } = await runOperatorOn(server, 'account', 'fund', '--account', address, '--no-approve', ...flags);
  if (code !== 0) throw new Error(`account fund failed: ${out}`);
}

/** The JSON-RPC URL of the devnet chain the server settles on. */
export function chainRpcUrl(server: RunningServer): string {
  const url = server.services.chain?.public.chain.rpcUrls.default.http[0];
  if (url === undefined) throw new Error('the server runs without a settlement chain (CHAIN=devnet)');
  return url;
}

/**
 * Sends onboarding transactions as a wallet would: signed with the key, sent over the chain's
 * JSON-RPC, and counted done once mined; every transaction sent is written down.
 */
export function walletSender(server: RunningServer, privateKey: Hex): { send: SendOnboardingTransaction; sent: string[] } {
  const transport = http(chainRpcUrl(server));
  const chain = server.services.chain?.public.chain;
  if (chain === undefined) throw new Error('the server runs without a settlement chain (CHAIN=devnet)');
  const wallet = createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport });
  const reads = createPublicClient({ chain, transport, pollingInterval: 20 });
  const sent: string[] = [];
  return {
    sent,
    send: async ({ to, data }) => {
      const hash = await wallet.sendTransaction({ to, data });
      sent.push(hash);
      const receipt = await reads.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
      return hash;
    },
  };
}
