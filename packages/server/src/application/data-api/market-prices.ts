import type { Ratio } from '@dex/core';
import type { Reserves } from '../../domain/amm/pool-candle.js';
import { type BookPrice, floorOf, inverse, type TokenRate, times, toNumber } from '../../domain/data-api/native-rates.js';
import { type PoolHoldings, tokenRates } from '../../domain/data-api/pool-rates.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import { TtlCache } from '../../domain/ttl-cache.js';
import type { Clock } from '../../ports/clock.js';
import type { PoolCandleStore } from '../../ports/store/amm-ports.js';
import type { CandleStore } from '../../ports/store/candle-ports.js';
import type { PoolRecord } from '../../ports/store/pool-ports.js';
import type { MarketRegistry } from '../markets/market-registry.js';
import type { DataApiConfig } from './data-api-config.js';
import type { ListedPools } from './listed-pools.js';

/** What every token is worth at one moment. */
export interface PriceSnapshot {
  readonly rates: ReadonlyMap<string, TokenRate>;
  /** USD per tinybar, from the native/USD-stablecoin book; null before it trades or without a configured stablecoin. */
  readonly usdPerTinybar: Ratio | null;
}

/** Whole units of a token as a ratio of its raw units. */
export function wholeUnit(token: TokenRecord): Ratio {
  return { num: 10n ** BigInt(token.decimals), den: 1n };
}

/**
 * Prices in the native coin (tinybar) and in USD, from the exchange's own trades and pools: each
 * book's last trade price before a moment, read from the 5-minute candles, linked to the native
 * token through the books (native-rates.ts); a token no book links is priced through the deepest
 * pool that links it to a priced token, at the pool's reserves then (pool-rates.ts). The USD price
 * of the native coin comes from the stablecoin's own link to the native token (its book, else its
 * pool), the stablecoin counted at one dollar.
 */
export class MarketPrices {
  private readonly cache: TtlCache<PriceSnapshot>;

  constructor(
    private readonly registry: MarketRegistry,
    private readonly candles: CandleStore,
    private readonly poolCandles: PoolCandleStore,
    private readonly listed: ListedPools,
    private readonly pricing: Pick<DataApiConfig, 'nativeTokenId' | 'usdTokenId'>,
    private readonly clock: Clock,
    cacheMs: number,
  ) {
    this.cache = new TtlCache(cacheMs, 1);
  }

  token(id: string): TokenRecord | undefined {
    return this.registry.tokens().find((token) => token.id === id);
  }

  /** Every book with the given tick price of its last trade (null: none yet). */
  books(ticksOf: (bookId: number) => bigint | null): BookPrice[] {
    return this.registry.list().map(({ book, grid }) => ({
      bookId: book.id,
      baseId: book.baseTokenId,
      quoteId: book.quoteTokenId,
      grid,
      ticks: ticksOf(book.id),
    }));
  }

  /** The pools, with their tokens named as the registry names them. */
  pools(): Promise<PoolRecord[]> {
    return this.listed.all();
  }

  /** Prices given every book's last trade price and every pool's reserves. */
  snapshot(books: readonly BookPrice[], pools: readonly PoolHoldings[] = []): PriceSnapshot {
    const native = this.pricing.nativeTokenId === null ? undefined : this.token(this.pricing.nativeTokenId);
    if (native === undefined) return { rates: new Map(), usdPerTinybar: null };
    const rates = tokenRates(books, native, pools);
    const usdToken = this.pricing.usdTokenId === null ? undefined : this.token(this.pricing.usdTokenId);
    const usd = usdToken === undefined ? undefined : rates.get(usdToken.id);
    // Only the stablecoin's own link to the native token (a book, else a pool) gives the native coin's USD price.
    const usdPerTinybar =
      usdToken === undefined || usd === undefined || usd.hops !== 1 ? null : inverse(times(usd.rate, wholeUnit(usdToken)));
    return { rates, usdPerTinybar };
  }

  /** Prices as of the last trades and pool reserves before `atMs` (to the 5-minute candle that holds them). */
  async at(atMs: number): Promise<PriceSnapshot> {
    const closes = new Map<number, bigint>();
    for (const market of this.registry.list()) {
      const candle = await this.candles.lastBefore(market.book.id, atMs);
      if (candle !== undefined) closes.set(market.book.id, candle.closeTicks);
    }
    const pools = await this.pools();
    const reserves = new Map<number, Reserves>();
    for (const pool of pools) {
      const candle = await this.poolCandles.lastBefore(pool.id, atMs);
      if (candle !== undefined) reserves.set(pool.id, candle.close);
    }
    return this.snapshot(
      this.books((bookId) => closes.get(bookId) ?? null),
      poolReserves(pools, (poolId) => reserves.get(poolId)),
    );
  }

  /** Prices now, cached for the configured time. */
  async now(): Promise<PriceSnapshot> {
    const now = this.clock.now();
    const cached = this.cache.get('now', now);
    if (cached !== undefined) return cached;
    const snapshot = await this.at(now + 1);
    this.cache.set('now', snapshot, now);
    return snapshot;
  }
}

/** The pools that had reserves, with them. */
export function poolReserves(pools: readonly PoolRecord[], reservesOf: (poolId: number) => Reserves | undefined): PoolHoldings[] {
  return pools.flatMap((pool) => {
    const reserves = reservesOf(pool.id);
    if (reserves === undefined) return [];
    return [{ poolId: pool.id, tokenAId: pool.tokenAId, tokenBId: pool.tokenBId, reserveA: reserves.a, reserveB: reserves.b }];
  });
}

/** Tinybar per whole token, rounded down; 0 when nothing prices the token. */
export function tinybarPrice(snapshot: PriceSnapshot, token: TokenRecord): bigint {
  const rate = snapshot.rates.get(token.id);
  return rate === undefined ? 0n : floorOf(times(rate.rate, wholeUnit(token)));
}

/** Tinybar worth of raw units of a token, exact; undefined when nothing prices it. */
export function tinybarValue(snapshot: PriceSnapshot, tokenId: string, raw: bigint): Ratio | undefined {
  const rate = snapshot.rates.get(tokenId);
  return rate === undefined ? undefined : times(rate.rate, { num: raw, den: 1n });
}

/** USD worth of an amount of tinybar; 0 without a native USD price. */
export function usdValue(snapshot: Pick<PriceSnapshot, 'usdPerTinybar'>, tinybar: Ratio): number {
  return snapshot.usdPerTinybar === null ? 0 : toNumber(times(tinybar, snapshot.usdPerTinybar));
}

/** USD per whole token, exact; undefined when it cannot be priced. */
export function exactUsdPrice(snapshot: PriceSnapshot, token: TokenRecord): Ratio | undefined {
  const rate = snapshot.rates.get(token.id);
  if (rate === undefined || snapshot.usdPerTinybar === null) return undefined;
  return times(times(rate.rate, wholeUnit(token)), snapshot.usdPerTinybar);
}

/** USD per whole token; 0 when it cannot be priced. */
export function usdPrice(snapshot: PriceSnapshot, token: TokenRecord): number {
  const usd = exactUsdPrice(snapshot, token);
  return usd === undefined ? 0 : toNumber(usd);
}
