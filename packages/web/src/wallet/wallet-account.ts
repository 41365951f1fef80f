import type { TypedDataAccount } from '@dex/sdk';
import { type Address, createWalletClient, custom, type EIP1193Provider, getAddress } from 'viem';

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
