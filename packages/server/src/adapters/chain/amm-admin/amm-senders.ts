import type { DevnetWallet } from '@dex/contracts';
import { type Address, isAddressEqual } from 'viem';
import { AmmRefusal, type AmmSenderKind } from '../../../ports/amm-admin.js';

/** Who sends the AMM administrator's transactions: what ChainAmmAdmin leaves to the chain it works on. */
export interface AmmSender {
  readonly kind: AmmSenderKind;
  /**
   * Makes the liquidity the sender itself provides, for the purpose (the devnet issuer's test
   * tokens); null: it provides out of its own balances.
   */
  readonly makeLiquidity: ((wallet: DevnetWallet, token: Address, amount: bigint) => Promise<void>) | null;
  /** Runs `work` with the wallet of `account`, null: the sender's own. */
  as<T>(account: Address | null, work: (wallet: DevnetWallet) => Promise<T>): Promise<T>;
}

/**
 * A key's wallet on a chain the service did not start: nothing to impersonate there, so it sends
 * for itself only, out of its own balances. Null: no key was given, reads only.
 */
export function keySender(wallet: DevnetWallet | null): AmmSender {
  const address = wallet?.account.address ?? null;
  return {
    kind: { kind: 'key', address },
    makeLiquidity: null,
    as: (account, work) => {
      if (wallet === null) throw new AmmRefusal("writing to the AMM takes its owner's key");
      if (account !== null && !isAddressEqual(account, wallet.account.address)) {
        throw new AmmRefusal(
          `only the key's own account ${wallet.account.address} sends on this chain: nothing can act for ${account} (no impersonation)`,
        );
      }
      return work(wallet);
    },
  };
}
