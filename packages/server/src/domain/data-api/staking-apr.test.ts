import { describe, expect, it } from 'vitest';
import { decimalText } from './decimal-text.js';
import { shareRatio, stakingApr } from './staking-apr.js';

const DAY_MS = 86_400_000;

describe('staking APR', () => {
  it("annualises the growth of a share's worth over the time between two moments", () => {
    // 1.00 -> 1.01 SAUCE per xSAUCE in five days: 1 % in 5 days, 73 % a year.
    const then = { atMs: 0, sauce: 100n, xsauce: 100n };
    expect(stakingApr(then, { sauce: 101n, xsauce: 100n }, 5 * DAY_MS)).toBe(73);
    expect(stakingApr(then, { sauce: 101n, xsauce: 100n }, 0)).toBe(0);
  });

  it('counts a share as one token while there are none', () => {
    expect(shareRatio({ sauce: 0n, xsauce: 0n })).toEqual({ num: 1n, den: 1n });
    expect(stakingApr({ atMs: 0, sauce: 0n, xsauce: 0n }, { sauce: 110n, xsauce: 100n }, 365 * DAY_MS)).toBe(10);
  });
});

describe('decimal text', () => {
  it('writes a ratio as a plain decimal, rounded down, without trailing zeros', () => {
    expect(decimalText({ num: 1n, den: 3n })).toBe('0.33333333');
    expect(decimalText({ num: 25n, den: 2n })).toBe('12.5');
    expect(decimalText({ num: 0n, den: 1n })).toBe('0');
    expect(decimalText({ num: 1n, den: 10n ** 10n })).toBe('0');
  });
});
