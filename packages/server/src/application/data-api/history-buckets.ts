import type { PoolCandle, Reserves } from '../../domain/amm/pool-candle.js';
import { bucketStart, type HistoryWindow, INTERVAL_MS } from '../../domain/data-api/history-window.js';
import type { BookPrice } from '../../domain/data-api/native-rates.js';
import type { Clock } from '../../ports/clock.js';
import type { PoolCandleStore } from '../../ports/store/amm-ports.js';
import type { Candle, CandleStore } from '../../ports/store/candle-ports.js';
import type { PoolRecord } from '../../ports/store/pool-ports.js';
import { type MarketPrices, type PriceSnapshot, poolReserves } from './market-prices.js';

/** One bucket of a history: the books' and pools' 5-minute candles in it, and prices as of its end. */
export interface Bucket {
  readonly startMs: number;
  readonly endMs: number;
  readonly candles: ReadonlyMap<number, readonly Candle[]>;
  readonly poolCandles: ReadonlyMap<number, readonly PoolCandle[]>;
  /** Each pool's reserves and LP supply at the end of the bucket (pools that had none yet are absent). */
  readonly poolCloses: ReadonlyMap<number, { readonly reserves: Reserves; readonly lpSupply: bigint }>;
  readonly snapshot: PriceSnapshot;
}

/** The buckets of a window, and the books and pools they were built from. */
export interface Buckets {
  readonly buckets: readonly Bucket[];
  readonly books: readonly BookPrice[];
  readonly pools: readonly PoolRecord[];
}

/** A 5-minute candle of a book or a pool, for walking both in time order. */
type Entry = { readonly startMs: number } & ({ readonly book: Candle } | { readonly pool: PoolCandle });

function add<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * Cuts the books' and pools' 5-minute candles into the buckets of a history window, each priced as
 * of its end (every book's last price and every pool's reserves by then, market-prices.ts).
 */
export class HistoryBuckets {
  constructor(
    private readonly candles: CandleStore,
    private readonly poolCandles: PoolCandleStore,
    private readonly prices: MarketPrices,
    private readonly clock: Clock,
  ) {}

  /** The buckets in which some book or pool moved, or with `every` each bucket that has begun by now. */
  async of(window: HistoryWindow, every = false): Promise<Buckets> {
    const books = this.prices.books(() => null);
    const pools = await this.prices.pools();
    const closes = new Map<number, bigint>();
    const poolCloses = new Map<number, { reserves: Reserves; lpSupply: bigint }>();
    const entries: Entry[] = [];
    for (const book of books) {
      const before = await this.candles.lastBefore(book.bookId, window.startMs);
      if (before !== undefined) closes.set(book.bookId, before.closeTicks);
      for (const candle of await this.candles.range(book.bookId, window.startMs, window.endMs)) {
        entries.push({ startMs: candle.startMs, book: candle });
      }
    }
    for (const pool of pools) {
      const before = await this.poolCandles.lastBefore(pool.id, window.startMs);
      if (before !== undefined) poolCloses.set(pool.id, { reserves: before.close, lpSupply: before.lpSupply });
      for (const candle of await this.poolCandles.range(pool.id, window.startMs, window.endMs)) {
        entries.push({ startMs: candle.startMs, pool: candle });
      }
    }
    entries.sort((a, b) => a.startMs - b.startMs);
    const width = INTERVAL_MS[window.interval];
    const lastStart = Math.min(window.endMs, this.clock.now() + 1);
    const buckets: Bucket[] = [];
    let snapshot: PriceSnapshot | undefined;
    let index = 0;
    for (let startMs = window.startMs; every ? startMs < lastStart : index < entries.length; startMs += width) {
      if (!every) startMs = bucketStart((entries[index] as Entry).startMs, window.interval);
      const bookCandles = new Map<number, Candle[]>();
      const pooled = new Map<number, PoolCandle[]>();
      for (; index < entries.length && (entries[index] as Entry).startMs < startMs + width; index++) {
        const entry = entries[index] as Entry;
        if ('book' in entry) {
          closes.set(entry.book.bookId, entry.book.closeTicks);
          add(bookCandles, entry.book.bookId, entry.book);
        } else {
          poolCloses.set(entry.pool.poolId, { reserves: entry.pool.close, lpSupply: entry.pool.lpSupply });
          add(pooled, entry.pool.poolId, entry.pool);
        }
      }
      // Prices move only with trades and pool changes: a bucket without any keeps the last snapshot.
      if (snapshot === undefined || bookCandles.size > 0 || pooled.size > 0) {
        snapshot = this.prices.snapshot(
          this.prices.books((bookId) => closes.get(bookId) ?? null),
          poolReserves(pools, (poolId) => poolCloses.get(poolId)?.reserves),
        );
      }
      buckets.push({
        startMs,
        endMs: startMs + width,
        candles: bookCandles,
        poolCandles: pooled,
        poolCloses: new Map(poolCloses),
        snapshot,
      });
    }
    return { buckets, books, pools };
  }
}
