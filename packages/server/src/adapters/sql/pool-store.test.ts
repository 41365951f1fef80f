import { beforeEach, describe, expect, it } from 'vitest';
import { DEVNET_TOKENS } from '../../application/markets/seed.js';
import type { PoolRecord } from '../../ports/store/pool-ports.js';
import { type Store, StoreConflictError } from '../../ports/store/ports.js';
import { describeEachEngine } from '../../test-support/store-engines.js';
import { CANDLE_MS } from './candle-deltas.js';

const NOW = Date.UTC(2026, 10, 22, 12);

describeEachEngine('pools, farms and pool candles', (stores) => {
  let store: Store;

  beforeEach(async () => {
    store = await stores.open();
    for (const token of DEVNET_TOKENS) await store.tokens.insert(token, NOW);
  });

  function pool(overrides: Partial<PoolRecord> = {}): PoolRecord {
    return {
      id: 1,
      contractId: '0.0.3001',
      lpTokenId: '0.0.3001',
      lpTokenName: 'SaucerSwap LP Token',
      lpTokenSymbol: 'SSLP',
      lpTokenDecimals: 8,
      tokenAId: '0.0.1001',
      tokenBId: '0.0.1002',
      lpTokenReserve: 10n ** 40n,
      tokenReserveA: 5n,
      tokenReserveB: 6n,
      updatedAt: NOW,
      ...overrides,
    };
  }

  describe('pool store', () => {
    it('saves, replaces and reads pools with reserves beyond 2^64', async () => {
      await store.pools.save(pool());
      await store.pools.save(pool({ tokenReserveA: 7n, updatedAt: NOW + 1 }));
      expect(await store.pools.list()).toEqual([pool({ tokenReserveA: 7n, updatedAt: NOW + 1 })]);
      expect(await store.pools.get(2)).toBeUndefined();
    });

    it('refuses a pool of an unknown token, of a token with itself, or reusing a contract', async () => {
      await expect(store.pools.save(pool({ tokenBId: '0.0.9' }))).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.pools.save(pool({ tokenBId: '0.0.1001' }))).rejects.toBeInstanceOf(StoreConflictError);
      await store.pools.save(pool());
      await expect(store.pools.save(pool({ id: 2, lpTokenId: '0.0.3002' }))).rejects.toBeInstanceOf(StoreConflictError);
    });
  });

  describe('farm store', () => {
    it('saves farms and stakes and reads an account stakes', async () => {
      await store.pools.save(pool());
      const farm = { id: 3, poolId: 1, sauceEmissions: 1n, hbarEmissions: 2n, totalStaked: 3n, updatedAt: NOW };
      await store.farms.save(farm);
      await store.farms.saveStake({ farmId: 3, accountId: '0.0.5', staked: 1n, updatedAt: NOW });
      await store.farms.saveStake({ farmId: 3, accountId: '0.0.5', staked: 2n, updatedAt: NOW + 1 });
      expect(await store.farms.list()).toEqual([farm]);
      expect(await store.farms.stakesOf(['0.0.5', '0x05'])).toEqual([
        { farmId: 3, accountId: '0.0.5', staked: 2n, updatedAt: NOW + 1 },
      ]);
      expect(await store.farms.stakesOf(['0.0.6'])).toEqual([]);
    });

    it('refuses a farm of an unknown pool and a stake in an unknown farm', async () => {
      await expect(
        store.farms.save({ id: 3, poolId: 9, sauceEmissions: 1n, hbarEmissions: 2n, totalStaked: 3n, updatedAt: NOW }),
      ).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.farms.saveStake({ farmId: 9, accountId: '0.0.5', staked: 1n, updatedAt: NOW })).rejects.toBeInstanceOf(
        StoreConflictError,
      );
    });
  });

  describe('candle store', () => {
    it('reads the candles the trade store folds, by range and the last one before an instant', async () => {
      const book = await store.books.insert(
        {
          baseTokenId: '0.0.1001',
          quoteTokenId: '0.0.1002',
          isAmmEnabled: false,
          tickStep: '0.001',
          sizeStep: '1',
          lotSize: '1',
          minNotional: '0',
          takerFeePips: 0,
          makerFeePips: 0,
          capFractionPips: 0,
        },
        NOW,
      );
      const trade = (executedAt: number, priceTicks: bigint) => ({
        bookId: book.id,
        executedAt,
        priceTicks,
        price: String(priceTicks),
        baseAmount: 10n,
        quoteAmount: 20n,
        direction: 'buy' as const,
        makerOrderId: 1,
        takerOrderId: 2,
      });
      await store.trades.append([trade(NOW, 5n), trade(NOW + 1, 7n), trade(NOW + CANDLE_MS, 6n)]);
      const NOTHING_ROUTED = { routedBaseVolume: 0n, routedQuoteVolume: 0n, routedTradeCount: 0 };
      const candles = await store.candles.range(book.id, NOW, NOW + 2 * CANDLE_MS);
      expect(candles).toEqual([
        {
          bookId: book.id,
          startMs: NOW,
          openTicks: 5n,
          highTicks: 7n,
          lowTicks: 5n,
          closeTicks: 7n,
          baseVolume: 20n,
          quoteVolume: 40n,
          tradeCount: 2,
          ...NOTHING_ROUTED,
        },
        {
          bookId: book.id,
          startMs: NOW + CANDLE_MS,
          openTicks: 6n,
          highTicks: 6n,
          lowTicks: 6n,
          closeTicks: 6n,
          baseVolume: 10n,
          quoteVolume: 20n,
          tradeCount: 1,
          ...NOTHING_ROUTED,
        },
      ]);
      expect(await store.candles.range(book.id, NOW + 1, NOW + 2 * CANDLE_MS)).toEqual(candles.slice(1));
      expect(await store.candles.lastBefore(book.id, NOW + CANDLE_MS)).toEqual(candles[0]);
      expect(await store.candles.lastBefore(book.id, NOW)).toBeUndefined();
    });
  });
});
