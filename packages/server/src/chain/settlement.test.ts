import { TestToken } from '@dex/contracts';
import { BUY, SELL } from '@dex/core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, ManualClock, startHarness, Trader } from '../test-support/harness.js';
import { DevnetIssuer } from './devnet-issuer.js';

const WHBAR = 100_000_000n; // 1 WHBAR in raw units (8 decimals)
const USDC = 1_000_000n; // 1 USDC (6 decimals)

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, new ManualClock(Date.now()));
});

afterAll(async () => {
  await h?.close();
});

function settlement() {
  const value = h.services.settlement;
  if (value === null) throw new Error('settlement is off');
  return value;
}

async function fundedTrader(make: (host: Harness) => Promise<Trader>): Promise<Trader> {
  const trader = await make(h);
  const book = h.services.registry.get(1);
  if (book === undefined) throw new Error('no book 1');
  await new DevnetIssuer(settlement().chain).fund(trader.swapper, [
    { token: book.base.evmAddress, amount: 1_000n * WHBAR },
    { token: book.quote.evmAddress, amount: 1_000n * USDC },
  ]);
  return trader;
}

function balanceOf(token: string, owner: string): Promise<bigint> {
  return settlement().chain.public.readContract({
    address: token as Address,
    abi: TestToken.abi,
    functionName: 'balanceOf',
    args: [owner as Address],
  });
}

/** Waits until no trade waits for settlement, then reads the trade tape of book 1 (past its cache). */
async function settledTape(): Promise<{ transactionHash: string }[]> {
  const { store } = h.services;
  for (let attempt = 0; attempt < 200; attempt++) {
    settlement().settler.wake();
    if ((await store.settlements.pending(1)).length === 0 && (await store.settlements.submitted()).length === 0) {
      h.clock.advance(60_000);
      const reply = await h.app.inject({ method: 'GET', url: '/trades/1?limit=100' });
      return (reply.json() as { trades: { transactionHash: string }[] }).trades;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('trades were not settled in time');
}

describe('settlement on the devnet chain', () => {
  it('settles the trades of a secp256k1 wallet and an Ed25519 account through the reactor: balances move exactly by the fills and fees, tape and histories carry the hash', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const taker = await fundedTrader((host) => Trader.ed25519(host));
    const market = h.services.registry.get(1);
    if (market === undefined) throw new Error('no book 1');
    const { base, quote } = market;
    const parties = [maker.swapper, taker.swapper, settlement().chain.operator.account.address];
    const before = await Promise.all(
      parties.flatMap((owner) => [balanceOf(base.evmAddress, owner), balanceOf(quote.evmAddress, owner)]),
    );

    // Asks of 2 @ 0.25 and 3 @ 0.251; the taker buys 4: 2 @ 0.25 and 2 @ 0.251.
    const asks = await maker.place([maker.limitRequest(1, SELL, 25_000, 20), maker.limitRequest(1, SELL, 25_100, 30)]);
    const bid = await taker.limit(1, BUY, 25_200, 40);
    const tape = await settledTape();
    expect(tape).toHaveLength(2);
    for (const trade of tape) expect(trade.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);

    const baseMoved = 4n * WHBAR;
    const quoteMoved = 2n * 250_000n + 2n * 251_000n; // 1.002 USDC
    const { takerFeePips, makerFeePips } = market.book;
    const takerFees = [2n * WHBAR, 2n * WHBAR].reduce(
      (sum, amount) => sum + (amount * BigInt(takerFeePips) + 999_999n) / 1_000_000n,
      0n,
    );
    const makerFees = [500_000n, 502_000n].reduce((sum, amount) => sum + (amount * BigInt(makerFeePips)) / 1_000_000n, 0n);
    const after = await Promise.all(
      parties.flatMap((owner) => [balanceOf(base.evmAddress, owner), balanceOf(quote.evmAddress, owner)]),
    );
    expect(after).toEqual([
      (before[0] as bigint) - baseMoved,
      (before[1] as bigint) + quoteMoved - makerFees,
      (before[2] as bigint) + baseMoved - takerFees,
      (before[3] as bigint) - quoteMoved,
      (before[4] as bigint) + takerFees,
      (before[5] as bigint) + makerFees,
    ]);

    for (const [trader, id] of [
      [maker, asks[0]?.id],
      [taker, bid.id],
    ] as const) {
      const history = await trader.request<{ events: { type: string; txHash: string | null }[] }>('GET', `/orders/${id}/history`);
      const fills = history.body.events.filter((event) => event.type === 'PARTIAL_FILL' || event.type === 'FILLED');
      expect(fills.length).toBeGreaterThan(0);
      for (const fill of fills) expect(tape.map((trade) => trade.transactionHash)).toContain(fill.txHash);
    }
  });
});
