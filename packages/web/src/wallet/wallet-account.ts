import type { SendOnboardingTransaction, TypedDataAccount } from '@dex/sdk';
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

/** How often the wallet's node is asked for a sent transaction's receipt, and for how long at most. */
const RECEIPT_POLL_MS = 500;
const RECEIPT_WAIT_MS = 10 * 60_000;

/**
 * Sends the onboarding's transactions from the wallet's account (`eth_sendTransaction`: the wallet
 * asks its user for each, and fills in gas, fees and nonce itself) and counts one done once the
 * wallet's node has mined it, so the status read next shows the step complete. A wallet on another
 * chain than `chainId` (the signing domain's) is refused before it is asked: its approvals would
 * land on that other chain. Plain EIP-1193 requests: viem's transaction machinery would double the
 * wallet chunk for what the wallet does anyway.
 */
export function walletTransactions(provider: EIP1193Provider, address: string, chainId: number): SendOnboardingTransaction {
  const from = getAddress(address);
  return async ({ step, to, data }) => {
    const current = Number(await provider.request({ method: 'eth_chainId' }));
    if (current !== chainId) throw new Error(`The wallet is on chain ${current}: switch it to chain ${chainId}, the exchange's`);
    const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from, to, data }] });
    for (const started = Date.now(); Date.now() - started < RECEIPT_WAIT_MS; ) {
      const receipt = await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] });
      if (receipt !== null) {
        if (receipt.status !== '0x1') throw new Error(`The ${step} transaction ${hash} reverted`);
        return hash;
      }
      await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
    }
    throw new Error(`The ${step} transaction ${hash} was not mined within ${RECEIPT_WAIT_MS / 60_000} minutes`);
  };
}
