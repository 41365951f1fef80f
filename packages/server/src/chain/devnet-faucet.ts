import { fund, TestToken } from '@dex/contracts';
import { type Address, getAddress, maxUint256 } from 'viem';
import type { ChainContext } from './chain-context.js';

/**
 * The devnet tokens' minter: an address nobody holds a key for (derived from a label), whose
 * transactions the faucet sends through anvil's impersonation, so minting never competes with the
 * operator's nonces, whichever process asks for it.
 */
export const DEVNET_FAUCET_ADDRESS: Address = '0x4E5F82fFcD9ec3850FdDbB59b717827A0A1C9Cae';

export class FaucetError extends Error {
  override readonly name = 'FaucetError';
}

/**
 * Funds devnet accounts: gas money, test tokens minted by the faucet address, and an unlimited
 * reactor allowance set by the account itself. Both go through anvil's impersonation, so it works
 * the same for secp256k1 wallets and Ed25519 ledger accounts (which cannot sign EVM transactions
 * here).
 */
export class DevnetFaucet {
  constructor(private readonly chain: ChainContext) {}

  async fund(account: string, tokens: readonly { token: string; amount: bigint }[]): Promise<void> {
    const devnet = this.chain.devnet;
    if (devnet === null) throw new FaucetError('the faucet exists on the embedded devnet chain only');
    const holder = getAddress(account);
    await fund(devnet, holder);
    await fund(devnet, DEVNET_FAUCET_ADDRESS);
    await devnet.test.impersonateAccount({ address: holder });
    await devnet.test.impersonateAccount({ address: DEVNET_FAUCET_ADDRESS });
    try {
      const self = devnet.wallet(holder);
      const faucet = devnet.wallet(DEVNET_FAUCET_ADDRESS);
      for (const { token, amount } of tokens) {
        const address = getAddress(token) as Address;
        await this.mined(faucet.writeContract({ address, abi: TestToken.abi, functionName: 'mint', args: [holder, amount] }));
        await this.mined(
          self.writeContract({ address, abi: TestToken.abi, functionName: 'approve', args: [this.chain.reactor, maxUint256] }),
        );
      }
    } finally {
      // The faucet stays impersonated: other processes may be minting at the same time.
      await devnet.test.stopImpersonatingAccount({ address: holder });
    }
  }

  private async mined(sent: Promise<`0x${string}`>): Promise<void> {
    const receipt = await this.chain.public.waitForTransactionReceipt({ hash: await sent });
    if (receipt.status !== 'success') throw new FaucetError(`faucet transaction ${receipt.transactionHash} reverted`);
  }
}
