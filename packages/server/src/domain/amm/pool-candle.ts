import type { PoolChange, PoolState } from './pool-ledger.js';

/** Reserves at one moment; their ratio is the pool's price (B per A). */
export interface Reserves {
  readonly a: bigint;
  readonly b: bigint;
}

/** Five minutes of a pool, folded in as its changes are recorded (like a book's 5-minute candle). */
export interface PoolCandle {
  readonly poolId: number;
  /** Unix ms, a multiple of five minutes. */
  readonly startMs: number;
  /** Reserves when the candle began (the pool's first reserves, for its first candle). */
  readonly open: Reserves;
  /** The reserves of the highest and lowest price (B per A) the pool had in the candle. */
  readonly high: Reserves;
  readonly low: Reserves;
  readonly close: Reserves;
  /** LP units in existence at the close. */
  readonly lpSupply: bigint;
  /** Raw units the swaps moved: A and B in, A and B out. */
  readonly aIn: bigint;
  readonly bIn: bigint;
  readonly aOut: bigint;
  readonly bOut: bigint;
  readonly swaps: number;
}

export const POOL_CANDLE_MS = 5 * 60 * 1000;

export const poolCandleStart = (atMs: number): number => atMs - (atMs % POOL_CANDLE_MS);

const reservesOf = (state: PoolState): Reserves => ({ a: state.reserveA, b: state.reserveB });

/** Whether reserves make a price: both sides hold something. */
export const priced = (reserves: Reserves): boolean => reserves.a > 0n && reserves.b > 0n;

/** Compares the prices (B per A) of two priced reserves, exactly. */
export function comparePrices(x: Reserves, y: Reserves): number {
  const left = x.b * y.a;
  const right = y.b * x.a;
  return left === right ? 0 : left < right ? -1 : 1;
}

/** The candle with one more change of its pool folded in; `candle` is undefined for a change that starts one. */
export function foldPoolChange(candle: PoolCandle | undefined, change: PoolChange): PoolCandle {
  const after = reservesOf(change.after);
  const before = reservesOf(change.before);
  const current: PoolCandle = candle ?? {
    poolId: change.poolId,
    startMs: poolCandleStart(change.atMs),
    open: priced(before) ? before : after,
    high: priced(before) ? before : after,
    low: priced(before) ? before : after,
    close: after,
    lpSupply: change.after.lpSupply,
    aIn: 0n,
    bIn: 0n,
    aOut: 0n,
    bOut: 0n,
    swaps: 0,
  };
  // A candle that began before the pool had a price takes its first one as its open.
  const open = priced(current.open) ? current.open : after;
  const extreme = (now: Reserves, pick: number): Reserves =>
    !priced(now) ? after : priced(after) && comparePrices(after, now) === pick ? after : now;
  const swap = change.swap;
  return {
    ...current,
    open,
    high: extreme(priced(current.high) ? current.high : open, 1),
    low: extreme(priced(current.low) ? current.low : open, -1),
    close: after,
    lpSupply: change.after.lpSupply,
    aIn: current.aIn + (swap?.aIn ?? 0n),
    bIn: current.bIn + (swap?.bIn ?? 0n),
    aOut: current.aOut + (swap?.aOut ?? 0n),
    bOut: current.bOut + (swap?.bOut ?? 0n),
    swaps: current.swaps + (swap === null ? 0 : 1),
  };
}
