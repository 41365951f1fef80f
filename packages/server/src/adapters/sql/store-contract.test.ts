import { largest, MAX_PRICE_TICKS, smallest } from '@dex/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NewBook } from '../../domain/markets/market-records.js';
import type { NewTrade } from '../../domain/orders/trade-records.js';
import { type Store, StoreConflictError } from '../../ports/store/ports.js';
import { describeEachEngine } from '../../test-support/store-engines.js';
import { testToken } from '../../test-support/tokens.js';
import { CANDLE_MS } from './candle-deltas.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
/** The start of a 5-minute candle, for trades placed relative to bucket edges. */
const BUCKET = NOW - (NOW % CANDLE_MS);

const token = testToken;

function book(base: string, quote: string, overrides: Partial<NewBook> = {}): NewBook {
  return {
    baseTokenId: base,
    quoteTokenId: quote,
    isAmmEnabled: false,
    tickStep: '0.001',
    sizeStep: '0.1',
    lotSize: '1',
    minNotional: '1',
    takerFeePips: 1_000,
    makerFeePips: 0,
    capFractionPips: 0,
    ...overrides,
  };
}

function trade(bookId: number, executedAt: number, price: number | bigint, baseAmount: bigint, quoteAmount: bigint): NewTrade {
  const priceTicks = BigInt(price);
  return {
    bookId,
    executedAt,
    priceTicks,
    price: String(priceTicks),
    baseAmount,
    quoteAmount,
    direction: priceTicks % 2n === 0n ? 'buy' : 'sell',
    makerOrderId: Number(priceTicks % 1_000_000n),
    takerOrderId: Number(priceTicks % 1_000_000n) + 1,
  };
}

/** A store with tokens 0.0.1 and 0.0.2 and the book 0.0.1/0.0.2; returns the store and book id. */
async function storeWithBook(open: () => Promise<Store>): Promise<{ store: Store; bookId: number }> {
  const store = await open();
  await store.tokens.insert(token(1), NOW);
  await store.tokens.insert(token(2), NOW);
  const created = await store.books.insert(book('0.0.1', '0.0.2'), NOW);
  return { store, bookId: created.id };
}

describeEachEngine('the store', ({ open }) => {
  describe('tokens', () => {
    it('inserts and lists tokens with every field', async () => {
      const store = await open();
      const inserted = await store.tokens.insert(
        token(7, { icon: 'https://x/icon.png', description: 'seven', website: 'https://x', dueDiligenceComplete: true }),
        NOW,
      );
      expect(inserted).toEqual({
        id: '0.0.7',
        evmAddress: '0x0000000000000000000000000000000000000007',
        symbol: 'T7',
        name: 'Token 7',
        decimals: 6,
        icon: 'https://x/icon.png',
        description: 'seven',
        website: 'https://x',
        dueDiligenceComplete: true,
        isFeeOnTransfer: false,
        sentinelReport: null,
        twitterHandle: null,
        circulatingSupply: null,
        isKnown: false,
        isDefault: false,
        createdAt: NOW,
        updatedAt: NOW,
      });
      await store.tokens.insert(token(3, { isFeeOnTransfer: true }), NOW + 1);
      expect(await store.tokens.list()).toEqual([
        inserted,
        { ...token(3, { isFeeOnTransfer: true }), createdAt: NOW + 1, updatedAt: NOW + 1 },
      ]);
    });

    it('changes only the listing fields an update names, clearing a text field given null', async () => {
      const store = await open();
      await store.tokens.insert(
        token(7, { icon: 'https://x/icon.png', website: 'https://x', circulatingSupply: 10n ** 30n }),
        NOW,
      );
      const updated = await store.tokens.update(
        '0.0.7',
        { icon: null, twitterHandle: 'seven', isKnown: true, circulatingSupply: 5n },
        NOW + 1,
      );
      expect(updated).toEqual({
        ...token(7, { website: 'https://x', twitterHandle: 'seven', isKnown: true, circulatingSupply: 5n }),
        createdAt: NOW,
        updatedAt: NOW + 1,
      });
      expect(await store.tokens.update('0.0.8', { isKnown: true }, NOW)).toBeUndefined();
    });

    it('lists tokens in creation order', async () => {
      const store = await open();
      await store.tokens.insert(token(9), NOW + 2);
      await store.tokens.insert(token(8), NOW + 1);
      await store.tokens.insert(token(10), NOW + 1);
      expect((await store.tokens.list()).map((row) => row.id)).toEqual(['0.0.10', '0.0.8', '0.0.9']);
    });

    it('refuses a duplicate id with a StoreConflictError', async () => {
      const store = await open();
      await store.tokens.insert(token(1), NOW);
      const duplicate = store.tokens.insert(token(1, { evmAddress: `0x${'9'.repeat(40)}` }), NOW);
      await expect(duplicate).rejects.toBeInstanceOf(StoreConflictError);
      await expect(duplicate).rejects.toThrow(/0\.0\.1/);
      expect(await store.tokens.list()).toHaveLength(1);
    });

    it('refuses a duplicate EVM address with a StoreConflictError', async () => {
      const store = await open();
      await store.tokens.insert(token(1), NOW);
      await expect(store.tokens.insert(token(2, { evmAddress: token(1).evmAddress }), NOW)).rejects.toBeInstanceOf(
        StoreConflictError,
      );
      expect((await store.tokens.list()).map((row) => row.id)).toEqual(['0.0.1']);
    });
  });

  describe('books', () => {
    it('inserts an open, unhalted book and lists it', async () => {
      const { store, bookId } = await storeWithBook(open);
      const expected = {
        id: bookId,
        ...book('0.0.1', '0.0.2'),
        status: 'OPEN',
        isHalted: false,
        createdAt: NOW,
        updatedAt: NOW,
      };
      expect(await store.books.list()).toEqual([expected]);
    });

    it('keeps isAmmEnabled', async () => {
      const { store } = await storeWithBook(open);
      const amm = await store.books.insert(book('0.0.2', '0.0.1', { isAmmEnabled: true }), NOW);
      expect(amm.isAmmEnabled).toBe(true);
    });

    it('refuses a book on an unknown token (foreign key) with a StoreConflictError', async () => {
      const store = await open();
      await store.tokens.insert(token(1), NOW);
      await expect(store.books.insert(book('0.0.1', '0.0.404'), NOW)).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.books.insert(book('0.0.404', '0.0.1'), NOW)).rejects.toBeInstanceOf(StoreConflictError);
      expect(await store.books.list()).toEqual([]);
    });

    it('refuses a second book on the same base/quote pair', async () => {
      const { store } = await storeWithBook(open);
      await expect(store.books.insert(book('0.0.1', '0.0.2', { tickStep: '1' }), NOW)).rejects.toBeInstanceOf(StoreConflictError);
      expect(await store.books.list()).toHaveLength(1);
    });

    it('allows the reversed pair as its own book', async () => {
      const { store, bookId } = await storeWithBook(open);
      const reversed = await store.books.insert(book('0.0.2', '0.0.1'), NOW);
      expect(reversed.id).not.toBe(bookId);
    });

    it('refuses a book of a token against itself', async () => {
      const { store } = await storeWithBook(open);
      await expect(store.books.insert(book('0.0.1', '0.0.1'), NOW)).rejects.toBeInstanceOf(StoreConflictError);
    });

    it('updates status and halt, returning the new record', async () => {
      const { store, bookId } = await storeWithBook(open);
      const halted = await store.books.update(bookId, { isHalted: true }, NOW + 5);
      expect(halted).toMatchObject({ id: bookId, status: 'OPEN', isHalted: true, createdAt: NOW, updatedAt: NOW + 5 });
      const closed = await store.books.update(bookId, { status: 'CLOSED' }, NOW + 6);
      expect(closed).toMatchObject({ status: 'CLOSED', isHalted: true, updatedAt: NOW + 6 });
      const both = await store.books.update(bookId, { status: 'OPEN', isHalted: false }, NOW + 7);
      expect(both).toMatchObject({ status: 'OPEN', isHalted: false, updatedAt: NOW + 7 });
      expect(await store.books.list()).toEqual([both]);
    });

    it('returns undefined when updating an unknown book', async () => {
      const { store } = await storeWithBook(open);
      expect(await store.books.update(999, { status: 'CLOSED' }, NOW)).toBeUndefined();
      expect((await store.books.list())[0]?.status).toBe('OPEN');
    });
  });

  describe('trades', () => {
    it('appends trades and pages them in both orders with an exact total', async () => {
      const { store, bookId } = await storeWithBook(open);
      await store.trades.append([1, 2, 3, 4, 5].map((n) => trade(bookId, NOW + n, 100 + n, BigInt(n), BigInt(n * 100))));
      const asc = await store.trades.page(bookId, 'asc', 1, 2);
      expect(asc.total).toBe(5);
      expect(asc.trades.map((row) => row.priceTicks)).toEqual([102n, 103n]);
      const desc = await store.trades.page(bookId, 'desc', 0, 3);
      expect(desc.total).toBe(5);
      expect(desc.trades.map((row) => row.priceTicks)).toEqual([105n, 104n, 103n]);
      const past = await store.trades.page(bookId, 'asc', 5, 10);
      expect(past).toEqual({ trades: [], total: 5 });
    });

    it('reads back every field of a trade, with amounts as bigint', async () => {
      const { store, bookId } = await storeWithBook(open);
      const big = 10n ** 30n + 7n;
      const input = trade(bookId, NOW, 42, big, big * 3n);
      await store.trades.append([input]);
      const { trades } = await store.trades.page(bookId, 'asc', 0, 1);
      expect(trades).toEqual([{ ...input, id: expect.any(Number), transactionHash: null }]);
    });

    it("counts a taker's swap with the pool in the book's candles as on its tape, and apart as routed", async () => {
      const { store, bookId } = await storeWithBook(open);
      await store.trades.append([trade(bookId, NOW, 42, 5n, 7n), { ...trade(bookId, NOW, 43, 100n, 300n), makerOrderId: null }]);
      await store.trades.append([{ ...trade(bookId, NOW + 1, 41, 1n, 2n), makerOrderId: null }]);
      const { trades } = await store.trades.page(bookId, 'asc', 0, 10);
      expect(trades.map((row) => row.makerOrderId)).toEqual([expect.any(Number), null, null]);
      const [candle] = await store.candles.range(bookId, NOW - 300_000, NOW + 300_000);
      expect(candle).toMatchObject({
        lowTicks: 41n,
        highTicks: 43n,
        closeTicks: 41n,
        baseVolume: 106n,
        quoteVolume: 309n,
        tradeCount: 3,
        routedBaseVolume: 101n,
        routedQuoteVolume: 302n,
        routedTradeCount: 2,
      });
      expect(await store.trades.windowStats(bookId, NOW - 1)).toMatchObject({ baseVolume: 106n, tradeCount: 3, lowTicks: 41n });
    });

    it('pages like slicing the appended list, for any offset and limit', async () => {
      const { store, bookId } = await storeWithBook(open);
      const all = Array.from({ length: 23 }, (_, n) => trade(bookId, NOW + n, n + 1, BigInt(n), BigInt(n)));
      await store.trades.append(all);
      const ticks = all.map((row) => row.priceTicks);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), async (offset, limit) => {
          const asc = await store.trades.page(bookId, 'asc', offset, limit);
          expect(asc.total).toBe(23);
          expect(asc.trades.map((row) => row.priceTicks)).toEqual(ticks.slice(offset, offset + limit));
          const desc = await store.trades.page(bookId, 'desc', offset, limit);
          expect(desc.trades.map((row) => row.priceTicks)).toEqual([...ticks].reverse().slice(offset, offset + limit));
        }),
      );
    });

    it('keeps books apart', async () => {
      const { store, bookId } = await storeWithBook(open);
      const other = (await store.books.insert(book('0.0.2', '0.0.1'), NOW)).id;
      await store.trades.append([trade(bookId, NOW, 1, 1n, 1n), trade(other, NOW, 2, 2n, 2n), trade(bookId, NOW, 3, 3n, 3n)]);
      expect((await store.trades.page(other, 'asc', 0, 10)).trades.map((row) => row.priceTicks)).toEqual([2n]);
      expect((await store.trades.page(bookId, 'asc', 0, 10)).total).toBe(2);
      expect(await store.trades.windowStats(other, 0)).toMatchObject({ tradeCount: 1, baseVolume: 2n });
    });

    it('appends nothing for an empty list', async () => {
      const { store, bookId } = await storeWithBook(open);
      await store.trades.append([]);
      expect(await store.trades.page(bookId, 'desc', 0, 10)).toEqual({ trades: [], total: 0 });
    });

    it('appends all or nothing', async () => {
      const { store, bookId } = await storeWithBook(open);
      await expect(store.trades.append([trade(bookId, NOW, 1, 1n, 1n), trade(999, NOW, 2, 2n, 2n)])).rejects.toThrow();
      expect((await store.trades.page(bookId, 'asc', 0, 10)).total).toBe(0);
      expect(await store.trades.windowStats(bookId, 0)).toMatchObject({ tradeCount: 0, baseVolume: 0n });
    });

    it('returns the latest trade, or undefined for a book without trades', async () => {
      const { store, bookId } = await storeWithBook(open);
      expect(await store.trades.latest(bookId)).toBeUndefined();
      await store.trades.append([trade(bookId, NOW, 10, 1n, 1n), trade(bookId, NOW, 11, 1n, 1n)]);
      await store.trades.append([trade(bookId, NOW + 1, 12, 1n, 1n)]);
      expect((await store.trades.latest(bookId))?.priceTicks).toBe(12n);
    });

    describe('windowStats', () => {
      it('is empty for a book without trades', async () => {
        const { store, bookId } = await storeWithBook(open);
        expect(await store.trades.windowStats(bookId, 0)).toEqual({
          openTicks: null,
          highTicks: null,
          lowTicks: null,
          baseVolume: 0n,
          quoteVolume: 0n,
          tradeCount: 0,
        });
      });

      it('sums volumes exactly as bigint far above 2^53', async () => {
        const { store, bookId } = await storeWithBook(open);
        const a = 10n ** 30n + 1n;
        const b = 999_999_999_999_999_999_999_999_999_999n;
        const c = 2n ** 100n + 3n;
        await store.trades.append([
          trade(bookId, BUCKET + 1_000, 5, a, b),
          trade(bookId, BUCKET + 2_000, 6, b, c),
          trade(bookId, BUCKET + CANDLE_MS + 1, 7, c, a),
        ]);
        const stats = await store.trades.windowStats(bookId, 0);
        expect(stats.baseVolume).toBe(a + b + c);
        expect(stats.quoteVolume).toBe(b + c + a);
        expect(stats.tradeCount).toBe(3);
      });

      it('takes open, high and low across 5-minute candles', async () => {
        const { store, bookId } = await storeWithBook(open);
        await store.trades.append([
          trade(bookId, BUCKET + 10, 100, 1n, 1n),
          trade(bookId, BUCKET + 20, 140, 1n, 1n),
          trade(bookId, BUCKET + CANDLE_MS + 5, 90, 1n, 1n),
          trade(bookId, BUCKET + 2 * CANDLE_MS, 120, 1n, 1n),
          trade(bookId, BUCKET + 4 * CANDLE_MS - 1, 95, 1n, 1n),
        ]);
        expect(await store.trades.windowStats(bookId, BUCKET)).toEqual({
          openTicks: 100n,
          highTicks: 140n,
          lowTicks: 90n,
          baseVolume: 5n,
          quoteVolume: 5n,
          tradeCount: 5,
        });
        expect(await store.trades.windowStats(bookId, BUCKET + CANDLE_MS)).toMatchObject({
          openTicks: 90n,
          highTicks: 120n,
          lowTicks: 90n,
          tradeCount: 3,
        });
      });

      it('rounds a window start in the middle of a bucket down to the bucket', async () => {
        const { store, bookId } = await storeWithBook(open);
        await store.trades.append([
          trade(bookId, BUCKET - 1, 50, 7n, 7n),
          trade(bookId, BUCKET + 1_000, 100, 1n, 10n),
          trade(bookId, BUCKET + 200_000, 110, 2n, 20n),
          trade(bookId, BUCKET + CANDLE_MS, 105, 4n, 40n),
        ]);
        // The window starts after the first two trades of the bucket, but the whole bucket counts.
        expect(await store.trades.windowStats(bookId, BUCKET + 250_000)).toEqual({
          openTicks: 100n,
          highTicks: 110n,
          lowTicks: 100n,
          baseVolume: 7n,
          quoteVolume: 70n,
          tradeCount: 3,
        });
        expect(await store.trades.windowStats(bookId, BUCKET + CANDLE_MS - 1)).toMatchObject({ tradeCount: 3 });
        expect(await store.trades.windowStats(bookId, BUCKET + CANDLE_MS)).toMatchObject({ tradeCount: 1, openTicks: 105n });
        expect(await store.trades.windowStats(bookId, BUCKET + 2 * CANDLE_MS)).toMatchObject({ tradeCount: 0, openTicks: null });
      });

      it('equals a direct computation over random trades, for any window start', async () => {
        const store = await open();
        let nextToken = 1;
        const amount = fc.bigInt({ min: 0n, max: 10n ** 36n });
        const tradeSpec = fc.record({
          at: fc.integer({ min: 0, max: 24 * 60 * 60 * 1000 }),
          // Up to the largest tick: prices past 2^53 must come back from either engine exactly.
          ticks: fc.oneof(fc.bigInt({ min: 1n, max: 1n << 40n }), fc.bigInt({ min: 1n, max: MAX_PRICE_TICKS })),
          base: amount,
          quote: amount,
        });
        await fc.assert(
          fc.asyncProperty(
            fc.array(tradeSpec, { maxLength: 40 }),
            fc.integer({ min: 0, max: 25 * 60 * 60 * 1000 }),
            async (specs, sinceOffset) => {
              await store.tokens.insert(token(nextToken), NOW);
              await store.tokens.insert(token(nextToken + 1), NOW);
              const { id } = await store.books.insert(book(`0.0.${nextToken}`, `0.0.${nextToken + 1}`), NOW);
              nextToken += 2;
              const trades = [...specs]
                .sort((x, y) => x.at - y.at)
                .map((spec) => trade(id, BUCKET + spec.at, spec.ticks, spec.base, spec.quote));
              await store.trades.append(trades);

              const direct = (list: readonly NewTrade[]) => ({
                openTicks: list[0]?.priceTicks ?? null,
                highTicks: list.length === 0 ? null : largest(list.map((row) => row.priceTicks)),
                lowTicks: list.length === 0 ? null : smallest(list.map((row) => row.priceTicks)),
                baseVolume: list.reduce((sum, row) => sum + row.baseAmount, 0n),
                quoteVolume: list.reduce((sum, row) => sum + row.quoteAmount, 0n),
                tradeCount: list.length,
              });
              expect(await store.trades.windowStats(id, 0)).toEqual(direct(trades));

              const since = BUCKET + sinceOffset;
              const windowStart = since - (since % CANDLE_MS);
              expect(await store.trades.windowStats(id, since)).toEqual(
                direct(trades.filter((row) => row.executedAt >= windowStart)),
              );
            },
          ),
          { numRuns: 60 },
        );
      });
    });
  });

  describe('concurrent transactions', () => {
    it('issue distinct nonces, in order, to callers that ask at the same moment', async () => {
      const store = await open();
      const batches = await Promise.all(
        Array.from({ length: 12 }, () => store.nonces.issue('0.0.7', [1, 1, 2], 0n, NOW + 60_000)),
      );
      const issued = batches.flat().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(issued).toEqual(Array.from({ length: 36 }, (_, index) => BigInt(index + 1)));
      expect(await store.nonces.lastIssued('0.0.7')).toBe(36n);
    });

    it('give every trade appended at the same moment its own id', async () => {
      const { store, bookId } = await storeWithBook(open);
      await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          store.trades.append([trade(bookId, NOW + n, 100 + n, 1n, 1n), trade(bookId, NOW + n, 200 + n, 1n, 1n)]),
        ),
      );
      const { trades, total } = await store.trades.page(bookId, 'asc', 0, 100);
      expect(total).toBe(20);
      expect(trades.map((row) => row.id)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
      expect((await store.trades.windowStats(bookId, NOW)).tradeCount).toBe(20);
    });
  });

  describe('changeMarker', () => {
    it('changes after another connection to the same file commits', async () => {
      const first = await open();
      const second = await open();
      const before = await first.changeMarker();
      await second.tokens.insert(token(1), NOW);
      const after = await first.changeMarker();
      expect(after).not.toBe(before);
      expect((await first.tokens.list()).map((row) => row.id)).toEqual(['0.0.1']);
      await second.tokens.insert(token(2), NOW);
      expect(await first.changeMarker()).not.toBe(after);
    });

    it('stays the same while nobody else writes', async () => {
      const first = await open();
      await open();
      const before = await first.changeMarker();
      await first.tokens.list();
      expect(await first.changeMarker()).toBe(before);
    });
  });

  describe('lifecycle', () => {
    it('answers ping while open and refuses after close, which may be called twice', async () => {
      const store = await open();
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
      await expect(store.ping()).rejects.toThrow();
      await store.close();
    });
  });
});
