import { isEvmAddress, WEI_PER_TINYBAR } from '@dex/core';
import { ONBOARDING_STEPS } from '@dex/protocol';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { InvalidParameterError } from '../errors.js';
import type { OnboardingStep } from '../order-types.js';

/** A 0x-prefixed hex string: an address or calldata. */
export type Hex = `0x${string}`;

/**
 * The canonical Permit2 (Uniswap's AllowanceTransfer), at the same address on every EVM chain: the
 * live reactor pulls through it, and the devnet installs it there.
 */
export const PERMIT2_ADDRESS: Hex = '0x000000000022d473030f116ddee9f6b43ac78ba3';
/** The largest allowance Permit2 holds (uint160): one that never runs down. */
export const PERMIT2_MAX_AMOUNT = 2n ** 160n - 1n;
/** The latest expiry Permit2 takes (uint48, unix seconds): an allowance that never runs out. */
export const PERMIT2_MAX_EXPIRATION = 2 ** 48 - 1;
/** The ERC-20 allowance given to Permit2: the largest uint256, which tokens do not count down. */
const MAX_UINT256 = 2n ** 256n - 1n;

/** One transaction of an onboarding: send `data` to `to` from the trading account, with no value. */
export interface OnboardingTransaction {
  /** The step it completes. */
  readonly step: OnboardingStep;
  /** The token the step is about (lower-case 0x). */
  readonly token: Hex;
  /** The contract to call: the token itself, or Permit2 for the reactor's approval inside it. */
  readonly to: Hex;
  /** The ABI-encoded call. */
  readonly data: Hex;
}

export interface OnboardingTransactionsParameters {
  /** The steps to take: an onboarding status's `pendingSteps`. Sent in the order the status lists steps in. */
  readonly steps: readonly OnboardingStep[];
  /** The book's base token (0x). */
  readonly baseToken: string;
  /** The book's quote token (0x). */
  readonly quoteToken: string;
  /** The reactor: the spender approved inside Permit2, the signing domain's `verifyingContract`. */
  readonly reactor: string;
  /** The Permit2 the reactor pulls through; default {@link PERMIT2_ADDRESS}. */
  readonly permit2?: string | undefined;
}

export type OnboardingTransactionsReturnType = OnboardingTransaction[];

export type OnboardingTransactionsErrorType = InvalidParameterError;

/** The first four bytes of the keccak-256 of a function's signature, as hex without 0x. */
function selector(signature: string): string {
  return Array.from(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

// Computed from the signatures, so each reads as the function it calls.
const ASSOCIATE = selector('associate()');
const ERC20_APPROVE = selector('approve(address,uint256)');
const PERMIT2_APPROVE = selector('approve(address,address,uint160,uint48)');

/** One static ABI word: a value left-padded to 32 bytes. */
function word(value: bigint | string): string {
  const hex = typeof value === 'bigint' ? value.toString(16) : value.slice(2).toLowerCase();
  return hex.padStart(64, '0');
}

function addressParameter(value: string, parameter: string): Hex {
  if (!isEvmAddress(value)) {
    throw new InvalidParameterError(parameter, `${parameter} must be a 0x address of 20 bytes`, {
      details: `got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 50)) : typeof value}`,
    });
  }
  return value.toLowerCase() as Hex;
}

/**
 * The transactions that take the given onboarding steps of a book, in the order they are to be sent,
 * without sending anything: for each token, its association (HIP-719's `associate()` on the token;
 * a token without associations never reports the step pending), its ERC-20 approval of Permit2 for
 * the largest amount, then the reactor's approval inside Permit2 (`approve(token, reactor, 2^160 - 1,
 * 2^48 - 1)`), as the live service's onboarding asks. Send each from the trading account.
 *
 * @example
 * const status = await getOnboardingStatus(client, { orderbookId: 1 });
 * const transactions = onboardingTransactions({
 *   steps: status.pendingSteps,
 *   baseToken: book.baseTokenEvmAddress,
 *   quoteToken: book.quoteTokenEvmAddress,
 *   reactor: (await getSignatureDomain(client)).verifyingContract,
 * });
 */
export function onboardingTransactions(parameters: OnboardingTransactionsParameters): OnboardingTransactionsReturnType {
  const { steps } = parameters;
  if (!Array.isArray(steps) || steps.some((step) => !(ONBOARDING_STEPS as readonly string[]).includes(step))) {
    throw new InvalidParameterError('steps', `steps must be onboarding steps: ${ONBOARDING_STEPS.join(', ')}`, {
      details: `got ${JSON.stringify(steps).slice(0, 200)}`,
    });
  }
  const base = addressParameter(parameters.baseToken, 'baseToken');
  const quote = addressParameter(parameters.quoteToken, 'quoteToken');
  const reactor = addressParameter(parameters.reactor, 'reactor');
  const permit2 = addressParameter(parameters.permit2 ?? PERMIT2_ADDRESS, 'permit2');
  return ONBOARDING_STEPS.filter((step) => steps.includes(step)).map((step) => {
    const token = step.includes('BaseToken') ? base : quote;
    if (step.startsWith('associate')) return { step, token, to: token, data: `0x${ASSOCIATE}` };
    if (step.endsWith('Permit2')) {
      return { step, token, to: token, data: `0x${ERC20_APPROVE}${word(permit2)}${word(MAX_UINT256)}` };
    }
    const data = `${PERMIT2_APPROVE}${word(token)}${word(reactor)}${word(PERMIT2_MAX_AMOUNT)}${word(BigInt(PERMIT2_MAX_EXPIRATION))}`;
    return { step, token, to: permit2, data: `0x${data}` };
  });
}

/** A call to the wrapped native token: send `data` to `to` with `value` (wei) from the trading account. */
export interface NativeCoinTransaction {
  readonly to: Hex;
  readonly data: Hex;
  readonly value: bigint;
}

const DEPOSIT = selector('deposit()');
const WITHDRAW = selector('withdraw(uint256)');

function tinybarParameter(value: bigint): bigint {
  if (typeof value !== 'bigint' || value <= 0n) {
    throw new InvalidParameterError('tinybar', 'tinybar must be a positive bigint (1 HBAR = 100,000,000 tinybar)');
  }
  return value;
}

/**
 * Ours, beyond the live onboarding's six steps: the transaction that wraps `tinybar` of the native
 * coin into the wrapped native token a native-coin book settles in (the onboarding status's
 * `baseToken` of such a book), `deposit()` with the value in wei. A seller of HBAR sends it first.
 */
export function wrapNativeTransaction(wrapper: string, tinybar: bigint): NativeCoinTransaction {
  const value = tinybarParameter(tinybar) * WEI_PER_TINYBAR;
  return { to: addressParameter(wrapper, 'wrapper'), data: `0x${DEPOSIT}`, value };
}

/** Ours: the transaction that unwraps `tinybar` of the wrapped native token back into native coin (`withdraw`). */
export function unwrapNativeTransaction(wrapper: string, tinybar: bigint): NativeCoinTransaction {
  const amount = tinybarParameter(tinybar);
  return { to: addressParameter(wrapper, 'wrapper'), data: `0x${WITHDRAW}${word(amount)}`, value: 0n };
}
