import { associateToken, type DevnetClients, type DevnetWallet, isWrappedNative, WEI_PER_TINYBAR } from '@dex/contracts';
import type { Address } from 'viem';
import type { AmmSender } from '../amm-admin/amm-senders.js';
import type { DevnetIssuer } from './devnet-issuer.js';

/** Gas money given to an impersonated provider that has less than this (1 coin, 18 decimals). */
const GAS_MONEY_BELOW = 10n ** 18n;

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
