import { BUY, SELL, type Side } from '@dex/core';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DepthFollower, fetchDepth } from '../../test-support/depth-follower.js';
import { type Harness, startHarness, Trader } from '../../test-support/harness.js';
import { StreamClient, streamUrl } from '../../test-support/stream-client.js';
import type { DepthDiffMessage, ServerMessage } from './protocol.js';

let harness: Harness;
let traders: Trader[];
const followers: DepthFollower[] = [];

beforeAll(async () => {
  harness = await startHarness({}, { listen: true });
  traders = [await Trader.secp256k1(harness), await Trader.ed25519(harness), await Trader.ed25519(harness)];
});
afterEach(async () => {
  await Promise.all(followers.splice(0).map((follower) => follower.client.close()));
});
afterAll(async () => {
  await harness.close();
});

async function follow(bookId: number): Promise<DepthFollower> {
  const follower = await DepthFollower.start(harness.url, (traders[0] as Trader).token, bookId);
  followers.push(follower);
  return follower;
}

/** Every follower of the book, once it has caught up, holds exactly `GET /depth` at the same update id. */
async function expectInStep(bookId: number, of: readonly DepthFollower[]): Promise<void> {
  const snapshot = await fetchDepth(harness.url, bookId);
  for (const follower of of) {
    await follower.reach(snapshot.lastUpdateId);
    expect(follower.replica.view()).toEqual({ lastUpdateId: snapshot.lastUpdateId, bids: snapshot.bids, asks: snapshot.asks });
    expect(follower.client.seqGaps).toBe(0);
  }
}

/** One step of trading on book 1 (WHBAR/USDC) around 0.25, in ticks of 0.00001 and steps of 0.1 WHBAR. */
type Step =
  | { kind: 'place'; trader: number; orders: { side: Side; ticks: number; steps: number }[] }
  | { kind: 'cancel'; trader: number; share: number }
  | { kind: 'expire'; trader: number; side: Side; ticks: number };

const order = fc.record({
  side: fc.constantFrom(BUY, SELL),
  ticks: fc.integer({ min: 24_950, max: 25_050 }),
  steps: fc.integer({ min: 1, max: 40 }),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      trader: fc.nat(2),
      orders: fc.array(order, { minLength: 1, maxLength: 6 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      trader: fc.nat(2),
      share: fc.double({ min: 0.1, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('expire' as const),
      trader: fc.nat(2),
      side: fc.constantFrom(BUY, SELL),
      ticks: fc.integer({ min: 24_950, max: 25_050 }),
    }),
  },
);

/** A deadline the build clamps to its minimum (now + 60 s), as unix seconds. */
function soonDeadline(): string {
  return String(Math.floor(harness.clock.now() / 1000) + 1);
}

async function run(next: Step): Promise<void> {
  const trader = traders[next.trader] as Trader;
  if (next.kind === 'place') {
    // Orders under the minimum notional are refused before any book sees them; the step keeps the rest.
    const requests = next.orders
      .filter(({ ticks, steps }) => ticks * steps >= 100_000)
      .map(({ side, ticks, steps }) => trader.limitRequest(1, side, ticks, steps));
    if (requests.length > 0) await trader.place(requests);
  } else if (next.kind === 'cancel') {
    const open = await trader.request<{ orders: { id: number }[] }>('GET', '/orders?status=OPEN,PARTIALLY_FILLED&limit=500');
    const ids = open.body.orders.map((listed) => listed.id);
    const chosen = ids.slice(0, Math.ceil(ids.length * next.share));
    if (chosen.length > 0) expect((await trader.request('POST', '/cancel', { orderIds: chosen })).status).toBe(202);
  } else {
    await trader.limit(1, next.side, next.ticks, 10, { deadline: soonDeadline() });
    harness.clock.advance(61_000);
    await harness.services.desk.expireDue();
    // Time moved on: keep the traders' tokens fresh for the steps after.
    await Promise.all(traders.map((each) => each.login()));
  }
}

describe('/ws/depth and the reliable-depth procedure', () => {
  it('keeps every follower equal to GET /depth at the same update id after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 8 }), async (steps) => {
        // Followers join a book that already has depth, at different points of the sequence.
        const early = await follow(1);
        let late: DepthFollower | undefined;
        for (const [index, next] of steps.entries()) {
          await run(next);
          if (index === 1) late = await follow(1);
          await expectInStep(1, late === undefined ? [early] : [early, late]);
        }
      }),
      { numRuns: 4 },
    );
  });

  it('rebuilds the book exactly when a follower joins while orders stream in', async () => {
    const rounds = 6;
    const streaming = Promise.all(
      traders.map(async (trader, index) => {
        for (let round = 0; round < rounds; round++) {
          const side = (index + round) % 2 === 0 ? BUY : SELL;
          const ticks = side === BUY ? 24_990 - round : 25_010 + round;
          // Each round both rests on its own side and takes from the other, so levels appear, shrink and vanish.
          await trader.place([
            trader.limitRequest(1, side, ticks, 5 + index),
            trader.limitRequest(1, side === BUY ? SELL : BUY, side === BUY ? 24_990 : 25_010, 5),
          ]);
        }
      }),
    );
    // Joining in the middle: the stream's diffs arrive around the snapshot, some before it and some after.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const joined = await Promise.all([follow(1), follow(1)]);
    await streaming;
    await expectInStep(1, joined);
    expect(joined.every((follower) => follower.failure === undefined)).toBe(true);
  });

  it('numbers diffs per book without gaps from the snapshot on, and sends a book only to its followers', async () => {
    const bookTwo = await StreamClient.open(streamUrl(harness.url, 'depth', { token: (traders[0] as Trader).token, books: '2' }));
    const bookOne = await follow(1);
    const [trader] = traders as [Trader];
    await trader.limit(1, BUY, 20_000, 10);
    await trader.limit(1, BUY, 20_000, 10);
    await expectInStep(1, [bookOne]);
    const diffs = bookOne.client.messages.filter((message): message is DepthDiffMessage => message.type === 'DEPTH_DIFF');
    for (const [index, diff] of diffs.entries()) {
      if (index > 0) expect(diff.firstUpdateId).toBe((diffs[index - 1] as DepthDiffMessage).finalUpdateId + 1);
      expect(diff.finalUpdateId).toBeGreaterThanOrEqual(diff.firstUpdateId);
    }
    expect(diffs.at(-1)?.bids).toEqual([['0.2', '2']]);

    const market = harness.services.registry.get(2);
    if (market === undefined) throw new Error('no book 2');
    await trader.place([trader.limitRequest(2, SELL, 100_000, 10)]);
    const diff = await bookTwo.waitFor((message: ServerMessage): message is DepthDiffMessage => message.type === 'DEPTH_DIFF');
    expect(diff).toMatchObject({ orderbookId: '2', asks: [[market.grid.formatPrice(100_000n), '10']], bids: [] });
    expect(bookTwo.messages.every((message) => message.type !== 'DEPTH_DIFF' || message.orderbookId === '2')).toBe(true);
    await bookTwo.close();
  });
});
