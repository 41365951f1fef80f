import { type Address, maxUint256 } from 'viem';
import { Permit2, TestToken } from './generated/artifacts.js';

/** The largest amount and the latest expiry Permit2 takes: an allowance that never runs down or out. */
export const PERMIT2_MAX_AMOUNT = 2n ** 160n - 1n;
export const PERMIT2_MAX_EXPIRATION = 2 ** 48 - 1;

/**
 * The two transactions that let `spender` (the reactor) pull `token` from the sender through
 * Permit2, in order, as the live service's onboarding asks: the token approves Permit2, then
 * Permit2 approves the spender. Each is a `writeContract` argument for any wallet.
 */
export function permit2Approvals(token: Address, permit2: Address, spender: Address) {
  return [
    { address: token, abi: TestToken.abi, functionName: 'approve', args: [permit2, maxUint256] },
    {
      address: permit2,
      abi: Permit2.abi,
      functionName: 'approve',
      args: [token, spender, PERMIT2_MAX_AMOUNT, PERMIT2_MAX_EXPIRATION],
    },
  ] as const;
}
