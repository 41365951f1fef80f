import { type Ratio, ratio } from '@dex/core';
import { toNumber } from './native-rates.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const YEAR_MS = 365 * DAY_MS;
/** The span of the staking APR (`avg5day`). */
export const STAKING_APR_SPAN_MS = 5 * DAY_MS;

/** SAUCE held and xSAUCE in existence at one moment, raw units (both have 6 decimals). */
export interface StakingMoment {
  readonly atMs: number;
  readonly sauce: bigint;
  readonly xsauce: bigint;
}

/** SAUCE one xSAUCE redeems for: 1 while there are no shares (the first staker gets one for one). */
export function shareRatio(moment: Pick<StakingMoment, 'sauce' | 'xsauce'>): Ratio {
  return moment.xsauce === 0n ? { num: 1n, den: 1n } : ratio(moment.sauce, moment.xsauce);
}

/**
 * The annual rate, in percent (four decimals), at which a share's worth grew from `then` to `now`
 * (`nowMs`): (ratio now / ratio then - 1) scaled from the time between them to 365 days. Rewards
 * only ever raise the ratio; 0 when no time passed.
 */
export function stakingApr(then: StakingMoment, now: Pick<StakingMoment, 'sauce' | 'xsauce'>, nowMs: number): number {
  const elapsed = BigInt(nowMs - then.atMs);
  if (elapsed <= 0n) return 0;
  const before = shareRatio(then);
  const after = shareRatio(now);
  // (after / before - 1) * YEAR / elapsed * 100
  const growth = ratio(
    (after.num * before.den - before.num * after.den) * BigInt(YEAR_MS) * 100n,
    after.den * before.num * elapsed,
  );
  const percent = growth.num < 0n ? -toNumber({ num: -growth.num, den: growth.den }) : toNumber(growth);
  return Math.round(percent * 10_000) / 10_000;
}
