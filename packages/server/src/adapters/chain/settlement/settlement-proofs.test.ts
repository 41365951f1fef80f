import { BUY, SELL } from '@dex/core';
import {
  createClient,
  getSettlementProof,
  type SettlementProof,
  SettlementProofMismatchError,
  verifySettlementProof,
} from '@dex/sdk';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../../test-support/funded-trader.js';
import { type Harness, ManualClock, startHarness, Trader } from '../../../test-support/harness.js';

/** The receipts the devnet node keeps (DEVNET_CHAIN_HISTORY_BLOCKS, its least). */
const HISTORY_BLOCKS = 64;

let h: Harness;

beforeAll(async () => {
  h = await startHarness(
    { CHAIN: 'devnet', DEVNET_CHAIN_HISTORY_BLOCKS: String(HISTORY_BLOCKS) },
    { clock: new ManualClock(Date.now()), listen: true },
  );
});

afterAll(async () => {
  await h?.close();
});

function chain() {
  const settlement = h.services.settlement;
  if (settlement === null) throw new Error('settlement is off');
  return settlement;
}

/** The node's URL, as a client of the service would know it. */
function nodeUrl(): string {
  return chain().chain.public.transport.url as string;
}

/** A node client of the test's own. */
function node() {
  return createPublicClient({ transport: http(nodeUrl()) });
}

/** Trades on book 1 and waits for the tape to name the settlement transaction. */
async function settledTrade(): Promise<{ transactionHash: string; tradeId: number }> {
  const maker = await fund(h, await Trader.secp256k1(h));
  const taker = await fund(h, await Trader.ed25519(h));
  await maker.limit(1, SELL, 25_000, 20);
  await taker.limit(1, BUY, 25_000, 20);
  for (let attempt = 0; attempt < 200; attempt++) {
    chain().settler.wake();
    h.clock.advance(60_000);
    const reply = await h.app.inject({ method: 'GET', url: '/trades/1?limit=1' });
    const [trade] = (reply.json() as { trades: { transactionHash: string; tradeId: number }[] }).trades;
    if (trade !== undefined && trade.transactionHash !== '') return trade;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the trade was not settled in time');
}

describe('settlement proofs', () => {
  it("serves a trade's transaction, checked against the node's receipt, and after the node forgot it, against the reactor's state", async () => {
    const trade = await settledTrade();
    const client = createClient({ baseUrl: h.url });
    const proof = await getSettlementProof(client, { transactionHash: trade.transactionHash });
    expect(proof.transactionHash).toBe(trade.transactionHash);
    expect(proof.fillIds).toEqual([String(trade.tradeId)]);
    expect(proof.events.map((event) => event.name)).toEqual(expect.arrayContaining(['MakerFill', 'TakerFill', 'Filled']));
    expect(await verifySettlementProof({ proof, chain: nodeUrl() })).toEqual({
      checkedBy: 'receipt',
      fillIds: [BigInt(trade.tradeId)],
    });

    await node().request({ method: 'anvil_mine' as never, params: [`0x${(HISTORY_BLOCKS * 2).toString(16)}`] as never });
    expect(
      await node()
        .getTransactionReceipt({ hash: trade.transactionHash as `0x${string}` })
        .catch(() => null),
    ).toBeNull();
    const later = await getSettlementProof(client, { transactionHash: trade.transactionHash });
    expect(later).toEqual(proof);
    expect(await verifySettlementProof({ proof: later, chain: nodeUrl() })).toEqual({
      checkedBy: 'reactorState',
      fillIds: [BigInt(trade.tradeId)],
    });
  });

  it('refuses a proof the chain contradicts: an event changed, or a fill the reactor never settled', async () => {
    const trade = await settledTrade();
    const proof = await getSettlementProof(createClient({ baseUrl: h.url }), { transactionHash: trade.transactionHash });
    const forged = (change: (events: SettlementProof['events']) => SettlementProof['events']): SettlementProof => ({
      ...proof,
      events: change(proof.events.map((event) => ({ ...event, topics: [...event.topics] }))),
    });
    const otherAmount = forged((events) =>
      events.map((event) => ({ ...event, data: `0x${'00'.repeat(event.data.length / 2 - 1)}` })),
    );
    await expect(verifySettlementProof({ proof: otherAmount, chain: nodeUrl() })).rejects.toBeInstanceOf(
      SettlementProofMismatchError,
    );

    await node().request({ method: 'anvil_mine' as never, params: [`0x${(HISTORY_BLOCKS * 2).toString(16)}`] as never });
    const unsettled = forged((events) =>
      events.map((event) =>
        event.name === 'Filled'
          ? { ...event, topics: [event.topics[0] ?? '', `0x${'ff'.repeat(8).padStart(64, '0')}`, ...event.topics.slice(2)] }
          : event,
      ),
    );
    await expect(verifySettlementProof({ proof: unsettled, chain: nodeUrl() })).rejects.toMatchObject({ field: 'fill' });
  });

  it('answers 400 for a malformed hash and 404 for a transaction it never saw, in the common error body', async () => {
    const malformed = await h.app.inject({ method: 'GET', url: '/settlements/0x1234' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: expect.stringContaining('64 hex digits') });
    const unknown = await h.app.inject({ method: 'GET', url: `/settlements/0x${'ab'.repeat(32)}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', error: expect.stringContaining('no settlement transaction') });
  });
});
