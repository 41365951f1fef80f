import type { Eip712Domain } from '@dex/core';
import type { Address } from 'viem';
import { fund, installTestToken } from '../../src/devnet-chain.js';
import { PartialFillLimitOrderReactor, Permit2 } from '../../src/generated/artifacts.js';
import { permit2Approvals } from '../../src/permit2-approvals.js';
import { associateAs } from './amm.js';
import { startTestDevnet, type TestDevnet, type Wallet } from './devnet.js';

/** The devnet's WHBAR and USDC at their ledger addresses, and the fee recipient of the test reactors. */
export const BASE = '0x00000000000000000000000000000000000003e9' as Address;
export const QUOTE = '0x00000000000000000000000000000000000003ea' as Address;
export const FEES = '0x000000000000000000000000000000000000fee5' as Address;
export const E8 = 100_000_000n;
export const E6 = 1_000_000n;

/** How long a role change waits on the test reactors. */
export const CHANGE_DELAY = 86_400n;

/**
 * A devnet node with Permit2 and a reactor that pulls through it (its operator and owner:
 * `operator`), and the two tokens minted by `operator`.
 */
export interface ReactorChain {
  readonly devnet: TestDevnet;
  readonly operator: Wallet;
  readonly reactor: Address;
  readonly permit2: Address;
  readonly domain: Eip712Domain;
}

export async function startReactorChain(): Promise<ReactorChain> {
  const devnet = await startTestDevnet();
  const operator = await devnet.newWallet();
  const name = 'PartialFillLimitOrderReactor';
  const permit2 = await devnet.deploy(operator, Permit2, []);
  const reactor = await devnet.deploy(operator, PartialFillLimitOrderReactor, [
    name,
    '1',
    permit2,
    CHANGE_DELAY,
    operator.account.address,
    FEES,
  ]);
  await installTestToken(devnet, operator, { address: BASE, name: 'Wrapped HBAR', symbol: 'WHBAR', decimals: 8 });
  await installTestToken(devnet, operator, { address: QUOTE, name: 'USD Coin', symbol: 'USDC', decimals: 6 });
  // The fee recipient associates with both tokens, as the ledger asks before it pays it the fees.
  await fund(devnet, FEES);
  for (const token of [BASE, QUOTE]) await associateAs(devnet, FEES, token);
  return {
    devnet,
    operator,
    reactor,
    permit2,
    domain: { name, version: '1', chainId: devnet.chain.id, verifyingContract: reactor },
  };
}

/** Lets the reactor pull `token` from `wallet` through Permit2 (both approvals, mined). */
export async function onboard(
  devnet: TestDevnet,
  wallet: Wallet,
  chain: Pick<ReactorChain, 'reactor' | 'permit2'>,
  token: Address,
) {
  for (const call of permit2Approvals(token, chain.permit2, chain.reactor)) {
    const receipt = await devnet.public.waitForTransactionReceipt({ hash: await wallet.writeContract(call as never) });
    if (receipt.status !== 'success') throw new Error(`onboarding ${token} reverted`);
  }
}
