import { type PoolReserves, reservesAfter, type Side } from '@dex/core';

/** A swap of one of the desk's takers with a book's pool, as the engine made it. */
export interface OwnSwap {
  readonly takerSide: Side;
  /** Base raw units the pool gave (taker buys) or took (taker sells). */
  readonly base: bigint;
  /** Quote raw units the pool took (taker buys) or gave (taker sells). */
  readonly quote: bigint;
}

interface TrackedSwap extends OwnSwap {
  /** The trade's id, once its turn is stored. */
  tradeId: number | null;
  /** The block whose `PoolFilled` event settled it. */
  minedAt: bigint | null;
}

interface PoolBook {
  /** The pair's reserves after `block`, as the chain's `Sync` events told them. */
  chain: { reserves: PoolReserves; block: bigint } | undefined;
  /** The desk's own swaps the chain's reserves may not hold yet, in the engine's order. */
  swaps: TrackedSwap[];
  /** Swaps the other way made after one the reactor refused, still unresolved: each was priced on reserves that held it. */
  doubtful: Set<TrackedSwap>;
}

/**
 * What each AMM-enabled book's engine must believe of its pool: the chain's last known reserves,
 * moved by every swap of the desk's own takers that those reserves do not hold yet (matched and
 * not settled, or settled in a later block). Each swap is replayed with the amounts it recorded,
 * so the engine's snapshot is exactly what the pair will see if nobody else trades. A swap that
 * the reactor refused is dropped: the chain never had it. The swaps made after it were priced on
 * reserves that held it: one the other way expected a price the pool no longer gives, and the pair
 * will likely refuse it too (one the same way finds a better price than it asked, which the pair
 * keeps). Until each of those is settled or refused, the engine gets no pool. Without that pause,
 * the takers those refusals give quantity back to would take again on the same doubtful reserves,
 * and be refused in turn, in a loop as long as swaps in both directions are in flight.
 */
export class BookPools {
  private readonly books = new Map<number, PoolBook>();
  private readonly byTrade = new Map<number, { bookId: number; swap: TrackedSwap }>();

  /** Starts following a book's pool (nothing known of it yet). */
  add(bookId: number): void {
    if (!this.books.has(bookId)) this.books.set(bookId, { chain: undefined, swaps: [], doubtful: new Set() });
  }

  has(bookId: number): boolean {
    return this.books.has(bookId);
  }

  /**
   * The reserves the book's engine should hold; undefined while the chain has told nothing, while
   * swaps made after a refused one are unresolved, or when a side ran dry.
   */
  snapshot(bookId: number): PoolReserves | undefined {
    const book = this.books.get(bookId);
    if (book?.chain === undefined || book.doubtful.size > 0) return undefined;
    let reserves = book.chain.reserves;
    for (const swap of book.swaps) reserves = reservesAfter(reserves, swap.takerSide, swap.base, swap.quote);
    return reserves.base > 0n && reserves.quote > 0n ? reserves : undefined;
  }

  /** A swap the engine just made; its trade id follows once the turn is stored. */
  swapped(bookId: number, swap: OwnSwap): void {
    this.books.get(bookId)?.swaps.push({ ...swap, tradeId: null, minedAt: null });
  }

  /**
   * Stored trades of the desk, in commit order: each pool trade (no maker) names the oldest swap of
   * its book still without an id, since turns are stored in the order they ran.
   */
  stored(trades: readonly { readonly id: number; readonly bookId: number; readonly makerOrderId: number | null }[]): void {
    for (const trade of trades) {
      if (trade.makerOrderId !== null) continue;
      const swap = this.books.get(trade.bookId)?.swaps.find((candidate) => candidate.tradeId === null);
      if (swap === undefined) continue;
      swap.tradeId = trade.id;
      this.byTrade.set(trade.id, { bookId: trade.bookId, swap });
    }
  }

  /** Drops the swaps whose turn was never stored (no trade id): a failed commit's. */
  forgetUnstored(): void {
    for (const book of this.books.values()) this.forget(book, (swap) => swap.tradeId === null);
  }

  /** A swap the store holds from before a restart, not settled yet. */
  restored(bookId: number, tradeId: number, swap: OwnSwap): void {
    const book = this.books.get(bookId);
    if (book === undefined) return;
    const tracked = { ...swap, tradeId, minedAt: null };
    book.swaps.push(tracked);
    this.byTrade.set(tradeId, { bookId, swap: tracked });
  }

  /**
   * The chain's reserves after `block`; drops the swaps they hold. The AMM indexer reports in chain
   * order, so an older block means the chain lost blocks: its reserves are the truth again.
   */
  synced(bookId: number, reserves: PoolReserves, block: bigint): boolean {
    const book = this.books.get(bookId);
    if (book === undefined) return false;
    book.chain = { reserves, block };
    this.forget(book, (swap) => swap.minedAt !== null && swap.minedAt <= block);
    return true;
  }

  /** A swap the reactor settled in `block`; the book whose snapshot changed, if one did. */
  mined(tradeId: number, block: bigint): number | undefined {
    const entry = this.byTrade.get(tradeId);
    if (entry === undefined) return undefined;
    entry.swap.minedAt = block;
    const book = this.books.get(entry.bookId) as PoolBook;
    if (book.chain === undefined || book.chain.block < block) return undefined;
    this.forget(book, (swap) => swap === entry.swap);
    return entry.bookId;
  }

  /**
   * A swap the reactor refused: the chain never had it, and the swaps the other way made after it
   * are doubtful. The book whose snapshot changed, if one did.
   */
  failed(tradeId: number): number | undefined {
    const entry = this.byTrade.get(tradeId);
    if (entry === undefined) return undefined;
    const book = this.books.get(entry.bookId) as PoolBook;
    for (const later of book.swaps.slice(book.swaps.indexOf(entry.swap) + 1)) {
      if (later.takerSide !== entry.swap.takerSide) book.doubtful.add(later);
    }
    this.forget(book, (swap) => swap === entry.swap);
    return entry.bookId;
  }

  private forget(book: PoolBook, gone: (swap: TrackedSwap) => boolean): void {
    const kept: TrackedSwap[] = [];
    for (const swap of book.swaps) {
      if (!gone(swap)) kept.push(swap);
      else {
        book.doubtful.delete(swap);
        if (swap.tradeId !== null) this.byTrade.delete(swap.tradeId);
      }
    }
    book.swaps = kept;
  }
}
