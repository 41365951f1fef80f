import { BUY, type MarketGrid, SELL } from '@dex/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund, tokenBalance } from '../src/test-support/funded-trader.js';
import { type Harness, ManualClock, startHarness, Trader } from '../src/test-support/harness.js';
import { addLiveMainnetBooks, LIVE_MAINNET_BOOKS } from '../src/test-support/live-books.js';

/**
 * The five books of the live mainnet listing (`live-captures.md`), created with the operator CLI
 * on devnet tokens of the same decimals, trading and settling on the devnet chain: two of them
 * have a tick of one size step finer than one raw unit of USDC, and WETH's prices pass 2^53 ticks.
 */

let h: Harness;
let bookIds: number[];

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new ManualClock(Date.now()) });
  bookIds = await addLiveMainnetBooks(h);
  // Started again, the devnet installs the new tokens on its chain.
  await h.restart();
});

afterAll(async () => {
  await h?.close();
});

interface Fill {
  readonly baseAmount: string;
  readonly quoteAmount: string;
  readonly price: string;
}

interface HistoryBody {
  readonly events: { readonly type: string; readonly txHash: string | null; readonly fill: Fill | null }[];
}

/** The fewest size steps worth at least `quote` raw units at `ticks`. */
function stepsWorth(grid: MarketGrid, ticks: bigint, quote: bigint): number {
  const { num, den } = grid.stepValue;
  return Number((quote * den + ticks * num - 1n) / (ticks * num));
}

/** Waits until every trade is settled on the chain. */
async function settled(): Promise<void> {
  const { store, settlement } = h.services;
  for (let attempt = 0; attempt < 400; attempt++) {
    settlement?.settler.wake();
    if ((await store.settlements.pending(1)).length === 0 && (await store.settlements.submitted()).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the trades were not settled in time');
}

describe('the live mainnet books', () => {
  it('are listed as the live service lists them: the lot size and minimum notional in raw units', async () => {
    const { orderbooks } = (await h.app.inject({ method: 'GET', url: '/books' })).json() as {
      orderbooks: Record<string, unknown>[];
    };
    for (const [index, book] of LIVE_MAINNET_BOOKS.entries()) {
      expect(orderbooks.find((item) => item.id === bookIds[index])).toMatchObject({
        baseTokenSymbol: book.base,
        quoteTokenSymbol: 'USDC',
        tickStep: book.tickStep,
        sizeStep: book.sizeStep,
        lotSize: book.liveLotSize,
        minNotional: book.liveMinNotional,
        takerFeePips: book.takerFeePips,
        makerFeePips: 0,
        // Never traded: "0", as live.
        quotePrice: '0',
      });
    }
  });

  it('rest and cross an order on each, and settle every trade for exactly the amounts recorded, within both signed rates', async () => {
    const maker = await fund(h, await Trader.secp256k1(h));
    const taker = await fund(h, await Trader.ed25519(h));
    const makers: { bookId: number; orderId: number; base: bigint; quote: bigint }[] = [];
    for (const [index, book] of LIVE_MAINNET_BOOKS.entries()) {
      const bookId = bookIds[index] as number;
      const market = h.services.registry.get(bookId);
      if (market === undefined) throw new Error(`no book ${bookId}`);
      const { grid } = market;
      const ticks = grid.parsePrice(book.price);
      // A sell worth about 20 USDC rests; a buy of about 16 USDC takes part of it, a second the rest.
      const steps = stepsWorth(grid, ticks, 20_000_000n);
      const ask = await maker.limit(bookId, SELL, ticks, steps);
      // The ask rests at its signed rate rounded up onto the grid: on a fine grid a small order's
      // rate can be coarser than the tick. Takers buy at the ask the book shows, paying price times
      // size rounded up to a raw unit, which crosses it.
      const { bestAskQuote } = (await h.app.inject({ method: 'GET', url: `/depth/${bookId}` })).json() as {
        bestAskQuote: string;
      };
      const askTicks = grid.parsePrice(bestAskQuote);
      expect(askTicks >= ticks).toBe(true);
      const buy = (size: number) => ({
        ...taker.limitRequest(bookId, BUY, askTicks, size),
        inputAmount: grid.quoteAmount(askTicks, size, 'up').toString(),
      });
      await taker.place([buy(stepsWorth(grid, ticks, 16_000_000n))]);
      await taker.place([buy(steps)]);
      expect(h.services.engines.engine(bookId)?.getOrder(ask.id)).toBeUndefined();
      const signed = JSON.parse((await h.services.store.orders.get(ask.id))?.signedOrder ?? '{}') as {
        input: { amount: string };
        output: { amount: string };
      };
      makers.push({ bookId, orderId: ask.id, base: BigInt(signed.input.amount), quote: BigInt(signed.output.amount) });
    }
    await settled();

    for (const [index, ask] of makers.entries()) {
      const { grid, base, quote } = h.services.registry.get(ask.bookId) as NonNullable<
        ReturnType<Harness['services']['registry']['get']>
      >;
      const history = (await maker.request<HistoryBody>('GET', `/orders/${ask.orderId}/history`)).body;
      const fills = history.events.filter((event) => event.fill !== null);
      expect(history.events.map((event) => event.type)).toEqual(['CREATED', 'PARTIAL_FILL', 'FILLED']);
      let received = 0n;
      for (const event of fills) {
        const fill = event.fill as Fill;
        expect(event.txHash).toMatch(/^0x[0-9a-f]{64}$/);
        // Within one raw unit of price times size, exactly compared.
        const ticks = grid.parsePrice(fill.price);
        const exact = ticks * (BigInt(fill.baseAmount) / grid.sizeStepRaw) * grid.stepValue.num;
        expect(BigInt(fill.quoteAmount) * grid.stepValue.den - exact < grid.stepValue.den).toBe(true);
        expect(exact - BigInt(fill.quoteAmount) * grid.stepValue.den < grid.stepValue.den).toBe(true);
        received += BigInt(fill.quoteAmount);
      }
      // The maker sold all it signed for, and received at least its signed minimum.
      expect(fills.reduce((sum, event) => sum + BigInt((event.fill as Fill).baseAmount), 0n)).toBe(ask.base);
      expect(received).toBeGreaterThanOrEqual(ask.quote);
      // On the chain, exactly what the fills say (the maker pays no fee on these books).
      expect(await tokenBalance(h, base.evmAddress, maker.swapper)).toBe(1_000n * 10n ** BigInt(base.decimals) - ask.base);
      makers[index] = { ...ask, quote: received };
      expect(quote.symbol).toBe('USDC');
    }
    const usdc = h.services.registry.get(bookIds[0] as number)?.quote;
    if (usdc === undefined) throw new Error('no USDC');
    const earned = makers.reduce((sum, ask) => sum + ask.quote, 0n);
    expect(await tokenBalance(h, usdc.evmAddress, maker.swapper)).toBe(1_000n * 10n ** 6n + earned);
  });

  it("take an order of exactly one lot for exactly the minimum notional, read from /books as the live service's clients read it", async () => {
    const { orderbooks } = (await h.app.inject({ method: 'GET', url: '/books' })).json() as {
      orderbooks: {
        id: number;
        baseTokenEvmAddress: string;
        quoteTokenEvmAddress: string;
        lotSize: string;
        minNotional: string;
      }[];
    };
    expect(orderbooks).toHaveLength(9);
    const seller = await fund(h, await Trader.secp256k1(h));
    const buyer = await fund(h, await Trader.secp256k1(h));
    const weth = bookIds[3];
    for (const book of orderbooks) {
      // Integers in the tokens' smallest units: BigInt takes them as they are.
      const lot = BigInt(book.lotSize).toString();
      const notional = BigInt(book.minNotional).toString();
      const sell = {
        inputToken: book.baseTokenEvmAddress,
        inputAmount: lot,
        outputToken: book.quoteTokenEvmAddress,
        outputAmount: notional,
      };
      const buy = {
        inputToken: book.quoteTokenEvmAddress,
        inputAmount: notional,
        outputToken: book.baseTokenEvmAddress,
        outputAmount: lot,
      };
      if (book.id === weth) {
        // One lot of 0.0001 WETH for 15 USDC is 150,000 USDC a WETH: past the 64-bit ticks of 1e-14.
        const reply = await seller.request('POST', '/orders/build', {
          orderRequests: [{ orderbookId: book.id, type: 'LIMIT', ...sell }],
        });
        expect(reply.status).toBe(400);
        expect(reply.body).toMatchObject({
          code: 'ORDER_PRICE_OUT_OF_RANGE',
          error: expect.stringContaining('92233.72036854775807'),
        });
        continue;
      }
      const [sold] = await seller.place([{ orderbookId: book.id, type: 'LIMIT', ...sell }]);
      const [bought] = await buyer.place([{ orderbookId: book.id, type: 'LIMIT', ...buy }]);
      expect([sold?.status, bought?.status]).toEqual(['ACTIVE', 'FILLED']);
    }
    await settled();
  });
});
