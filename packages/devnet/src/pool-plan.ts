import type { ReferencePrices } from '@dex/market-maker';
import { toRaw } from '@dex/sdk';
import { isNativeCoin } from '@dex/server';

/** What the plan reads of a registry token. */
export interface PlanToken {
  readonly id: string;
  readonly evmAddress: string;
  readonly decimals: number;
}

/** What the plan reads of a book. */
export interface PlanBook {
  readonly baseTokenId: string;
  readonly quoteTokenId: string;
}

/** One pool the liquidity account seeds: its two tokens, the raw amounts of each, and its farm weight. */
export interface SeededPool {
  readonly base: PlanToken;
  readonly quote: PlanToken;
  readonly amountBase: bigint;
  readonly amountQuote: bigint;
  readonly allocPoint: bigint;
}

/**
 * USD value of each side of a seeded pool: 100,000 USD of each token, so about 200,000 USD a pool.
 * Deep enough that a drift swap of a few hundred dollars moves the price by a fraction of a percent,
 * and a book-sized taker order routed through it barely moves it either.
 */
export const POOL_SIDE_USD = 100_000n;
/** Farm weight of the first book's pool (WHBAR/USDC on the devnet); every other pool has 1. */
const FIRST_POOL_ALLOC_POINTS = 2n;
/** Digits a reference price is read with (prices like "0.05" have far fewer). */
const PRICE_DIGITS = 18;

/** Raw units of a token worth `usd` at its reference price, rounded down. */
export function unitsWorth(usd: bigint, token: PlanToken, price: string): bigint {
  return (usd * 10n ** BigInt(token.decimals + PRICE_DIGITS)) / toRaw(price, PRICE_DIGITS);
}

/**
 * One pool per distinct token pair of the books (the native coin has none), in book order, priced at the reference prices
 * (the pool's ratio is the ratio of its tokens' prices, as the bot's books start); a pair whose
 * tokens lack a reference price or a registry entry is left out.
 */
export function seededPools(books: readonly PlanBook[], tokens: readonly PlanToken[], prices: ReferencePrices): SeededPool[] {
  const byId = new Map(tokens.map((token) => [token.id, token]));
  const seen = new Set<string>();
  const pools: SeededPool[] = [];
  for (const book of books) {
    const key = [book.baseTokenId, book.quoteTokenId].sort().join('/');
    const base = byId.get(book.baseTokenId);
    const quote = byId.get(book.quoteTokenId);
    const basePrice = prices[book.baseTokenId];
    const quotePrice = prices[book.quoteTokenId];
    if (seen.has(key) || !base || !quote || basePrice === undefined || quotePrice === undefined) continue;
    // A native-coin book settles in the wrapped token, whose pool the wrapped token's own book seeds.
    if (isNativeCoin(base) || isNativeCoin(quote)) continue;
    seen.add(key);
    pools.push({
      base,
      quote,
      amountBase: unitsWorth(POOL_SIDE_USD, base, basePrice),
      amountQuote: unitsWorth(POOL_SIDE_USD, quote, quotePrice),
      allocPoint: pools.length === 0 ? FIRST_POOL_ALLOC_POINTS : 1n,
    });
  }
  return pools;
}
