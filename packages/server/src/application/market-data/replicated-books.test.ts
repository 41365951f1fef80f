import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NatsEnginePublisher, NatsEngineSubscriber } from '../../adapters/nats/nats-engine-feed.js';
import { createLogger } from '../../composition/logging.js';
import type { BookDepthChange } from '../../domain/orders/desk-commit.js';
import type { BookSnapshot } from '../../ports/engine-feed.js';
import { type DeskParts, openDeskParts } from '../../test-support/desk-parts.js';
import { NATS_AVAILABLE, useTestNats } from '../../test-support/nats.js';
import { until } from '../../test-support/until.js';
import { DeskEvents } from '../desk/desk-events.js';
import { MarketRegistry } from '../markets/market-registry.js';
import { ReplicatedBooks } from './replicated-books.js';

const change = (first: number, final: number, bids: [bigint, number][]): BookDepthChange => ({
  bookId: 1,
  firstUpdateId: first,
  finalUpdateId: final,
  time: 0,
  bids,
  asks: [],
});

describe.skipIf(!NATS_AVAILABLE)("a gateway's replicas of the books, on the engines' feed over NATS", () => {
  const nats = useTestNats();
  let desk: DeskParts;
  let replicas: ReplicatedBooks | undefined;
  let stopSnapshots: (() => Promise<void>) | undefined;

  beforeEach(async () => {
    desk = await openDeskParts();
  });
  afterEach(async () => {
    await replicas?.stop();
    await stopSnapshots?.();
    await desk.close();
  });

  /** An engine side whose book 1 is `current` (other books: empty), and a gateway's replicas following it. */
  async function start(current: () => BookSnapshot | undefined) {
    const prefix = nats.names().subjectPrefix;
    const publisher = new NatsEnginePublisher(nats.connection(), prefix);
    stopSnapshots = await publisher.serveSnapshots((bookId) =>
      bookId === 1 ? current() : { depth: { bids: [], asks: [], lastUpdateId: 0 }, pool: null },
    );
    const registry = new MarketRegistry(desk.store);
    await registry.load();
    const events = new DeskEvents(createLogger('silent'));
    const forwarded: number[] = [];
    events.subscribe((commit) => forwarded.push(commit.depth.length));
    replicas = new ReplicatedBooks(
      registry,
      new NatsEngineSubscriber(nats.connection(), prefix),
      events,
      createLogger('silent'),
      {
        snapshotTimeoutMs: 1_000,
        retryMs: 50,
      },
    );
    await replicas.start();
    const publish = (depth: BookDepthChange[]) =>
      publisher.publish({ shard: 0, commit: { depth, orderEvents: [], trades: [] }, pools: [[1, { base: 5n, quote: 7n }]] });
    return { replicas, publish, forwarded };
  }

  it("starts from each book's snapshot and applies the changes that follow it, with the pools they carry", async () => {
    const { replicas, publish, forwarded } = await start(() => ({
      depth: { bids: [[100n, 5]], asks: [], lastUpdateId: 3 },
      pool: null,
    }));
    expect(replicas.view(1)?.depth()).toEqual({ bids: [[100n, 5]], asks: [], lastUpdateId: 3 });
    publish([change(4, 5, [[101n, 2]])]);
    await until(() => (replicas.view(1)?.depth().lastUpdateId === 5 ? true : undefined), 'the change', 5_000);
    expect(replicas.view(1)?.depth().bids).toEqual([
      [101n, 2],
      [100n, 5],
    ]);
    expect(replicas.view(1)?.pool).toEqual({ base: 5n, quote: 7n });
    expect(forwarded).toEqual([1]);
  });

  it('reads a book from its engine again after a gap in its update ids, and answers TRADING_UNAVAILABLE until then', async () => {
    let snapshot: BookSnapshot | undefined = { depth: { bids: [[100n, 5]], asks: [], lastUpdateId: 3 }, pool: null };
    const { replicas, publish } = await start(() => snapshot);
    // Changes 4..6 were lost on the way, and the engine does not answer for a while.
    snapshot = undefined;
    publish([change(7, 8, [[99n, 1]])]);
    await until(
      () => {
        try {
          replicas.view(1);
          return undefined;
        } catch (error) {
          return error;
        }
      },
      'the replica to leave step',
      5_000,
    ).then((error) => expect(error).toMatchObject({ code: 'TRADING_UNAVAILABLE' }));
    snapshot = { depth: { bids: [[99n, 1]], asks: [], lastUpdateId: 8 }, pool: null };
    const inStep = () => {
      try {
        return replicas.view(1)?.depth().lastUpdateId === 8 ? true : undefined;
      } catch {
        return undefined;
      }
    };
    await until(inStep, 'the snapshot after the gap', 5_000);
    expect(replicas.view(1)?.depth().bids).toEqual([[99n, 1]]);
  });

  it('has no view of a book the registry does not know', async () => {
    const { replicas } = await start(() => ({ depth: { bids: [], asks: [], lastUpdateId: 0 }, pool: null }));
    expect(replicas.view(999)).toBeUndefined();
  });
});
