import { WrappedNative } from '@dex/contracts';
import { WEI_PER_TINYBAR } from '@dex/core';
import { encodeFunctionData } from 'viem';
import { describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../errors.js';
import { unwrapNativeTransaction, wrapNativeTransaction } from './onboarding-transactions.js';

const WHBAR = '0x00000000000000000000000000000000000003E9';

describe('native-coin transactions', () => {
  it('wraps tinybar as a deposit of 1e10 wei each and unwraps them with withdraw, as the wrapper encodes them', () => {
    expect(wrapNativeTransaction(WHBAR, 150_000_000n)).toEqual({
      to: WHBAR.toLowerCase(),
      data: encodeFunctionData({ abi: WrappedNative.abi, functionName: 'deposit' }),
      value: 150_000_000n * WEI_PER_TINYBAR,
    });
    expect(unwrapNativeTransaction(WHBAR, 7n)).toEqual({
      to: WHBAR.toLowerCase(),
      data: encodeFunctionData({ abi: WrappedNative.abi, functionName: 'withdraw', args: [7n] }),
      value: 0n,
    });
  });

  it('refuses a wrapper that is no address and an amount that is not a positive bigint of tinybar', () => {
    expect(() => wrapNativeTransaction('0x1234', 1n)).toThrow(InvalidParameterError);
    expect(() => wrapNativeTransaction(WHBAR, 0n)).toThrow(InvalidParameterError);
    expect(() => unwrapNativeTransaction(WHBAR, 1 as unknown as bigint)).toThrow(InvalidParameterError);
  });
});
