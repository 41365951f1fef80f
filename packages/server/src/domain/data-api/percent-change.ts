import { type Ratio, ratio } from '@dex/core';
import { toNumber } from './native-rates.js';

/** Percent change from `then` to `now`, to four decimals; undefined unless both are known and `then` is not zero. */
export function percentChange(now: Ratio | undefined, then: Ratio | undefined): number | undefined {
  if (now === undefined || then === undefined || then.num === 0n) return undefined;
  const change = ratio((now.num * then.den - then.num * now.den) * 100n, now.den * then.num);
  return Math.round(toNumber(change) * 10_000) / 10_000;
}
