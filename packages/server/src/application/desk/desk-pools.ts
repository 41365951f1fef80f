import { BUY, SELL } from '@dex/core';
import type { CommittedTrade } from '../../domain/orders/desk-commit.js';
import type { PairReserves, SettledSwap } from '../../ports/settlement-desk.js';
import type { UnsettledTrade } from '../../ports/store/settlement-ports.js';
import type { MarketRegistry } from '../markets/market-registry.js';
import type { EngineHost } from './engine-host.js';

/**
 * Keeps the pool snapshot of every AMM-enabled book's engine in step with the chain: the reserves
 * the AMM indexer reads, the desk's own swaps as they are stored, settled or refused. Each change
 * gives the engine the snapshot anew (see `BookPools`).
 */
export class DeskPools {
  constructor(
    private readonly registry: MarketRegistry,
    private readonly engines: EngineHost,
  ) {}

  /** Swaps stored before a restart and not settled yet, oldest first. */
  restore(swaps: readonly UnsettledTrade[]): void {
    for (const trade of swaps) {
      const takerSide = trade.direction === 'buy' ? BUY : SELL;
      this.engines.pools.restored(trade.bookId, trade.tradeId, { takerSide, base: trade.baseAmount, quote: trade.quoteAmount });
    }
  }

  /** Swaps of turns that were never stored (their commit failed): the chain will never see them. */
  forgetUnstored(): void {
    this.engines.pools.forgetUnstored();
  }

  /** The trades of a stored commit group: its swaps get their trade ids. */
  stored(trades: readonly CommittedTrade[]): void {
    this.engines.pools.stored(trades);
  }

  /** Reserves read from the chain: each book on the pair's two tokens takes them, base and quote in its own order. */
  synced(pairs: readonly PairReserves[]): void {
    const { pools } = this.engines;
    const byTokens = new Map(pairs.map((pair) => [`${pair.token0}:${pair.token1}`, pair]));
    for (const market of this.registry.list()) {
      const bookId = market.book.id;
      if (!pools.has(bookId)) continue;
      // The pool holds the tokens the book settles in (a native-coin side's wrapped token).
      const { base, quote } = market.settlement;
      // A pair orders its tokens by address (token0 < token1).
      const pair = byTokens.get(base < quote ? `${base}:${quote}` : `${quote}:${base}`);
      if (pair === undefined) continue;
      const reserves =
        pair.token0 === base ? { base: pair.reserve0, quote: pair.reserve1 } : { base: pair.reserve1, quote: pair.reserve0 };
      if (pools.synced(bookId, reserves, pair.block)) this.engines.refreshPool(bookId);
    }
  }

  /** Swaps the reactor settled. */
  settled(swaps: readonly SettledSwap[]): void {
    for (const { tradeId, block } of swaps) {
      const bookId = this.engines.pools.mined(tradeId, block);
      if (bookId !== undefined) this.engines.refreshPool(bookId);
    }
  }
}
