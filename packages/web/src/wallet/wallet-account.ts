import type { SendOnboardingTransaction, TypedDataAccount } from '@dex/sdk';
import { type Address, createPublicClient, createWalletClient, custom, type EIP1193Provider, getAddress } from 'viem';

/**
 * A browser wallet (any EIP-1193 provider) as the SDK's `TypedDataAccount`, through viem's `custom`
 * transport: the wallet signs the login message (`personal_sign`) and each order's EIP-712 typed
 * data (`eth_signTypedData_v4`); its key never reaches the page.
 */
export function walletAccount(provider: EIP1193Provider, address: Address): TypedDataAccount {
  const wallet = createWalletClient({ transport: custom(provider) });
  return {
    address,
    signMessage: ({ message }) => wallet.signMessage({ account: address, message }),
    signTypedData: (typedData) => wallet.signTypedData({ account: address, ...typedData }),
  };
}

/** Asks the wallet for its accounts (the wallet's own prompt) and adapts the first one. */
export async function connectWallet(provider: EIP1193Provider): Promise<TypedDataAccount> {
  const wallet = createWalletClient({ transport: custom(provider) });
  const [address] = await wallet.requestAddresses();
  if (address === undefined) throw new Error('The wallet shared no account');
  return walletAccount(provider, getAddress(address));
}

/**
 * Sends the onboarding's transactions from the wallet's account (`eth_sendTransaction`: the wallet
 * asks its user for each) and counts one done once the wallet's node has mined it, so the status
 * read next shows the step complete. A wallet on another chain than `chainId` (the signing
 * domain's) is refused before it is asked: its approvals would land on that other chain.
 */
export function walletTransactions(provider: EIP1193Provider, address: string, chainId: number): SendOnboardingTransaction {
  const transport = custom(provider);
  const wallet = createWalletClient({ account: getAddress(address), transport });
  const reads = createPublicClient({ transport, pollingInterval: 500 });
  return async ({ step, to, data }) => {
    const current = await wallet.getChainId();
    if (current !== chainId) throw new Error(`The wallet is on chain ${current}: switch it to chain ${chainId}, the exchange's`);
    const hash = await wallet.sendTransaction({ to, data, chain: null });
    const receipt = await reads.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`The ${step} transaction ${hash} reverted`);
    return hash;
  };
}
