import type { Eip712Domain } from '@dex/core';
import type { Address } from 'viem';
import { installTestToken } from '../../src/devnet-chain.js';
import { PartialFillLimitOrderReactor } from '../../src/generated/artifacts.js';
import { startTestDevnet, type TestDevnet, type Wallet } from './devnet.js';

/** The devnet's WHBAR and USDC at their ledger addresses, and the fee recipient of the test reactors. */
export const BASE = '0x00000000000000000000000000000000000003e9' as Address;
export const QUOTE = '0x00000000000000000000000000000000000003ea' as Address;
export const FEES = '0x000000000000000000000000000000000000fee5' as Address;
export const E8 = 100_000_000n;
export const E6 = 1_000_000n;

/** A devnet node with a reactor (its operator: `operator`) and the two tokens minted by `operator`. */
export interface ReactorChain {
  readonly devnet: TestDevnet;
  readonly operator: Wallet;
  readonly reactor: Address;
  readonly domain: Eip712Domain;
}

export async function startReactorChain(): Promise<ReactorChain> {
  const devnet = await startTestDevnet();
  const operator = await devnet.newWallet();
  const name = 'PartialFillLimitOrderReactor';
  const reactor = await devnet.deploy(operator, PartialFillLimitOrderReactor, [name, '1', operator.account.address, FEES]);
  await installTestToken(devnet, operator, { address: BASE, name: 'Wrapped HBAR', symbol: 'WHBAR', decimals: 8 });
  await installTestToken(devnet, operator, { address: QUOTE, name: 'USD Coin', symbol: 'USDC', decimals: 6 });
  return { devnet, operator, reactor, domain: { name, version: '1', chainId: devnet.chain.id, verifyingContract: reactor } };
}
