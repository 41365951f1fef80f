import { associateToken, type DevnetClients, type DevnetWallet, isWrappedNative, WEI_PER_TINYBAR } from '@dex/contracts';
import { type Address, isAddressEqual } from 'viem';
import { AmmRefusal, type AmmSenderKind } from '../../../ports/amm-admin.js';
import type { DevnetIssuer } from '../devnet/devnet-issuer.js';

/** Gas money given to an impersonated provider that has less than this (1 coin, 18 decimals). */
const GAS_MONEY_BELOW = 10n ** 18n;

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
 * The devnet's issuer, through anvil's impersonation (so the service and the operator CLI can both
 * send as it at once); it acts for any other account the same way.
 */
export function devnetIssuerSender(devnet: DevnetClients, issuer: DevnetIssuer): AmmSender {
  return {
    kind: { kind: 'devnet-issuer' },
    makeLiquidity: (wallet, token, amount) => makeTokens(devnet, issuer, wallet, token, amount),
    as: (account, work) => (account === null ? issuer.asIssuer(work) : impersonated(devnet, account, work)),
  };
}

/**
 * Gives the issuer `amount` of a token to provide (DevnetIssuer.issue): for the wrapped native coin,
 * native coin to deposit first, and the association that holding it takes.
 */
async function makeTokens(devnet: DevnetClients, issuer: DevnetIssuer, wallet: DevnetWallet, token: Address, amount: bigint) {
  if (await isWrappedNative(devnet, token)) {
    const self = wallet.account.address;
    const value = amount * WEI_PER_TINYBAR;
    await devnet.test.setBalance({ address: self, value: (await devnet.public.getBalance({ address: self })) + value });
    await associateToken(devnet, wallet, token);
  }
  await issuer.issue(wallet, token, amount);
}

/** Runs `work` as `account` through anvil's impersonation, with gas money if it has little. */
async function impersonated<T>(devnet: DevnetClients, account: Address, work: (wallet: DevnetWallet) => Promise<T>) {
  if ((await devnet.public.getBalance({ address: account })) < GAS_MONEY_BELOW) {
    await devnet.test.setBalance({ address: account, value: GAS_MONEY_BELOW * 1_000n });
  }
  await devnet.test.impersonateAccount({ address: account });
  try {
    return await work(devnet.wallet(account));
  } finally {
    await devnet.test.stopImpersonatingAccount({ address: account });
  }
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
