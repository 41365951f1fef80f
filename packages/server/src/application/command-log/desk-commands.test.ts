import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ensureCommandStream,
  JetStreamCommandReader,
  JetStreamCommandSender,
} from '../../adapters/nats/jetstream-command-log.js';
import { openSqliteStore } from '../../adapters/sqlite/sqlite-store.js';
import { createLogger } from '../../composition/logging.js';
import { AppError } from '../../domain/errors.js';
import type { CommandFollowing, CommandSender } from '../../ports/command-log.js';
import { StoreUnavailableError } from '../../ports/store/ports.js';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';
import { NATS_AVAILABLE, useTestNats } from '../../test-support/nats.js';
import { tempDataDir } from '../../test-support/temp-data-dir.js';
import type { OrderCandidate } from '../desk/order-desk.js';
import { CommandLogDesk } from './command-log-desk.js';
import { CommandLogSettlementDesk } from './command-log-settlement-desk.js';
import { deskCommandHandler } from './desk-command-handler.js';
import {
  answeredValue,
  decodeDeskCommand,
  encodeDeskAnswer,
  encodeDeskCommand,
  NOT_STORED_MESSAGE,
  refusalOf,
} from './desk-commands.js';
import { ShardCommands } from './shard-commands.js';

/** The desk's stages as the engine role calls them, each taking the command's position. */
/** A candidate of `bookId` (the routing tests need books of two shards; the book takes it as given). */
const onBook = (candidate: OrderCandidate, bookId: number): OrderCandidate => ({
  ...candidate,
  fields: { ...candidate.fields, bookId },
});

describe('desk commands as bytes', () => {
  it('bring a save back with its bigints exact', () => {
    const candidate = limitCandidate('0.0.7', SELL, 25_000, 10, 2n ** 200n);
    const command = {
      kind: 'save',
      account: '0.0.7',
      candidates: [candidate],
      holdings: [['0xabc', { balance: 2n ** 255n, allowance: 1n }]],
    } as const;
    expect(decodeDeskCommand(encodeDeskCommand(command))).toEqual(command);
  });

  it('answer a failure to store as ENGINE_UNAVAILABLE, which promises nothing: the command stays in the log', () => {
    for (const failure of [
      new StoreUnavailableError('the store is out of reach'),
      new AppError('TRADING_UNAVAILABLE'),
      new AppError('STORAGE_UNAVAILABLE'),
    ]) {
      expect(() => answeredValue(encodeDeskAnswer(refusalOf(failure)))).toThrow(
        expect.objectContaining({ code: 'ENGINE_UNAVAILABLE', message: NOT_STORED_MESSAGE }),
      );
    }
    expect(() => answeredValue(encodeDeskAnswer(refusalOf(new AppError('NONCE_NOT_ISSUED', undefined, { index: 2 }))))).toThrow(
      expect.objectContaining({ code: 'NONCE_NOT_ISSUED', index: 2 }),
    );
    expect(() => answeredValue(encodeDeskAnswer(refusalOf(new Error('a bug'))))).toThrow(
      expect.objectContaining({ code: 'INTERNAL' }),
    );
  });

  it('refuse bytes that are not a desk command', () => {
    expect(() => decodeDeskCommand(new TextEncoder().encode('{"kind":"drop"}'))).toThrow('not a desk command');
  });
});

describe.skipIf(!NATS_AVAILABLE)('an engine following its command log', () => {
  const nats = useTestNats();
  const engines: DeskParts[] = [];
  const followings: CommandFollowing[] = [];
  const folders: (() => void)[] = [];
  let sender: CommandSender;

  beforeEach(async () => {
    await ensureCommandStream(nats.connection(), nats.names());
    sender = new JetStreamCommandSender(nats.connection(), nats.names());
  });
  afterEach(async () => {
    for (const following of followings.splice(0)) await following.stop();
    for (const engine of engines.splice(0)) await engine.close();
    for (const remove of folders.splice(0)) remove();
  });

  /** Starts the engine of `shard` (on a store of its own unless given parts), following from the position its store holds. */
  async function startEngine(shard: number, parts?: DeskParts): Promise<DeskParts> {
    const engine = parts ?? (await openDeskParts());
    if (parts === undefined) engines.push(engine);
    return follow(shard, engine);
  }

  async function follow(shard: number, engine: DeskParts): Promise<DeskParts> {
    const reader = new JetStreamCommandReader(nats.connection(), nats.names());
    const handler = deskCommandHandler(engine.trading, { error: () => {} } as never);
    followings.push(await reader.follow(shard, await engine.store.orders.commandPosition(shard), handler));
    return engine;
  }

  /** The engines of `shards` (of two) on one store, each following its log; the store's folder is removed after the test. */
  async function sharedShards(...shards: number[]): Promise<DeskParts[]> {
    const data = tempDataDir();
    folders.push(data.remove);
    const file = `${data.dir}/shared.sqlite`;
    const started: DeskParts[] = [];
    for (const index of shards) {
      const engine = await openDeskParts({ openStore: () => openSqliteStore(file), shard: { index, count: 2 } });
      engines.push(engine);
      started.push(await follow(index, engine));
    }
    return started;
  }

  const gateway = (shards: number, engineStores: readonly DeskParts[]) =>
    new CommandLogDesk(new ShardCommands(sender, shards, 5_000), {
      booksOf: async (ids) => {
        const books = new Map<number, number>();
        for (const engine of engineStores) for (const [id, book] of await engine.store.orders.booksOf(ids)) books.set(id, book);
        return books;
      },
    });

  it("stores a gateway's save on the engine, answers its record, and stores the command's position with it", async () => {
    const engine = await startEngine(0);
    const [nonce] = await engine.nonces('0.0.7', 1);
    const candidate = limitCandidate('0.0.7', SELL, 25_000, 10, nonce as bigint);
    const [record] = await gateway(1, [engine]).accept('0.0.7', [candidate]);
    expect(record).toMatchObject({ orderHash: candidate.fields.orderHash, account: '0.0.7', nonce, status: 'OPEN' });
    expect(await engine.store.orders.byHashes([candidate.fields.orderHash])).toHaveLength(1);
    expect(await engine.store.orders.commandPosition(0)).toBe(1n);
  });

  it("answers a refused save with the engine's code and item, and stores its position all the same", async () => {
    const engine = await startEngine(0);
    const unissued = limitCandidate('0.0.7', SELL, 25_000, 10, 99n, { index: 3 });
    const refusal = await gateway(1, [engine])
      .accept('0.0.7', [unissued])
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'NONCE_NOT_ISSUED', index: 3, status: 400 });
    expect(await engine.store.orders.commandPosition(0)).toBe(1n);
  });

  it('is not handed a command again after a restart from its stored position, and answers a repeat from the store', async () => {
    const engine = await startEngine(0);
    const [nonce] = await engine.nonces('0.0.7', 1);
    const candidate = limitCandidate('0.0.7', BUY, 24_000, 5, nonce as bigint);
    const desk = gateway(1, [engine]);
    const [first] = await desk.accept('0.0.7', [candidate]);
    const following = followings.pop() as CommandFollowing;
    await following.stop();
    await follow(0, engine);
    // The client's retry is a new command; the engine answers it with the stored order.
    const [again] = await desk.accept('0.0.7', [candidate]);
    expect(again?.id).toBe(first?.id);
    expect(await engine.store.orders.commandPosition(0)).toBe(2n);
    expect(engine.commits.flatMap((commit) => commit.orderEvents)).toHaveLength(1);
  });

  it("splits a batch over two shards' engines on one store into one command each, and cancels on the shard of each order's book", async () => {
    const [even, odd] = (await sharedShards(0, 1)) as [DeskParts, DeskParts];
    const [first] = await even.nonces('0.0.7', 1, 1);
    const [second] = await even.nonces('0.0.7', 1, 2);
    const onOdd = limitCandidate('0.0.7', SELL, 25_000, 10, first as bigint, { index: 0 });
    const onEven = onBook(limitCandidate('0.0.7', SELL, 25_000, 10, second as bigint, { index: 1 }), 2);
    const desk = gateway(2, [even]);
    const records = await desk.accept('0.0.7', [onOdd, onEven]);
    // Each engine numbers with its own residue, so the shared store never sees an id twice.
    expect(records.map((record) => [record.bookId, record.id % 2])).toEqual([
      [1, 1],
      [2, 0],
    ]);
    // Positions are the stream's sequence numbers, which all shards share: one each, 1 and 2.
    const positions = [await even.store.orders.commandPosition(0), await even.store.orders.commandPosition(1)];
    expect(positions.sort()).toEqual([1n, 2n]);

    const ids = records.map((record) => record.id);
    const outcome = await desk.cancel('0.0.7', [ids[1] as number, 12_345, ids[0] as number]);
    expect(outcome.accepted).toEqual([ids[1], ids[0]]);
    expect(outcome.skipped).toEqual([{ orderId: 12_345, reason: 'NOT_FOUND' }]);
    expect(odd.books.live.ofAccount('0.0.7')).toEqual([]);
    expect(even.books.live.ofAccount('0.0.7')).toEqual([]);
  });

  it('cancels the open orders of an account on every shard for a lost stream without books', async () => {
    const [even] = (await sharedShards(0, 1)) as [DeskParts, DeskParts];
    const [first] = await even.nonces('0.0.7', 1, 1);
    const [second] = await even.nonces('0.0.7', 1, 2);
    const desk = gateway(2, [even]);
    const records = await desk.accept('0.0.7', [
      limitCandidate('0.0.7', SELL, 25_000, 10, first as bigint),
      onBook(limitCandidate('0.0.7', SELL, 25_000, 10, second as bigint, { index: 1 }), 2),
    ]);
    expect(await desk.cancelOpen('0.0.7', new Set([2]), 'DISCONNECT')).toEqual([records[1]?.id]);
    expect(await desk.cancelOpen('0.0.7', null, 'DISCONNECT')).toEqual([records[0]?.id]);
  });

  it('refuses a nonce built for a book of another shard, so that two engines can never take one nonce', async () => {
    const [odd] = (await sharedShards(1)) as [DeskParts];
    const [builtForEven] = await odd.nonces('0.0.7', 1, 2);
    const refusal = await gateway(2, [odd])
      .accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, builtForEven as bigint)])
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'NONCE_NOT_ISSUED', index: 0 });
    expect((refusal as Error).message).toContain('built for order book 2');
  });

  it('refuses, without storing it, an order on a book its shard does not own (a gateway that counts the shards otherwise)', async () => {
    const [even] = (await sharedShards(0)) as [DeskParts];
    const [nonce] = await even.nonces('0.0.7', 1, 1);
    const candidate = limitCandidate('0.0.7', SELL, 25_000, 10, nonce as bigint);
    // This gateway believes in one shard, so book 1 goes to shard 0, whose engine keeps even books.
    const refusal = await gateway(1, [even])
      .accept('0.0.7', [candidate])
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'INTERNAL' });
    expect((refusal as Error).message).toContain('ENGINE_SHARDS');
    expect(await even.store.orders.byHashes([candidate.fields.orderHash])).toEqual([]);
  });

  it("carries the settler's verdicts to every shard, and each engine ends only its own books' orders", async () => {
    const [even, odd] = (await sharedShards(0, 1)) as [DeskParts, DeskParts];
    const [first] = await even.nonces('0.0.7', 1, 1);
    const [second] = await even.nonces('0.0.7', 1, 2);
    const [third] = await even.nonces('0.0.7', 1, 1);
    const records = await gateway(2, [even]).accept('0.0.7', [
      limitCandidate('0.0.7', SELL, 25_000, 10, first as bigint),
      onBook(limitCandidate('0.0.7', SELL, 25_000, 10, second as bigint, { index: 1 }), 2),
      limitCandidate('0.0.7', SELL, 26_000, 10, third as bigint, { index: 2 }),
    ]);
    const settler = new CommandLogSettlementDesk(new ShardCommands(sender, 2, 5_000), createLogger('silent'));
    await settler.cancelledOnChain(records[2]?.orderHash as string, `0x${'cd'.repeat(32)}`);
    await settler.floorRaisedOnChain('0.0.7', (second as bigint) + 1n, `0x${'ab'.repeat(32)}`);
    const stored = await Promise.all(records.map((record) => even.store.orders.get(record.id)));
    expect(stored.map((record) => [record?.status, record?.reason])).toEqual([
      ['CANCELED', 'NONCE_FLOOR'],
      ['CANCELED', 'NONCE_FLOOR'],
      ['CANCELED', 'USER'],
    ]);
    expect(await settler.finalizeCancels()).toBe(0);
    settler.poolReservesSynced([]);
    expect([...odd.books.live.ofAccount('0.0.7'), ...even.books.live.ofAccount('0.0.7')]).toEqual([]);
  });

  it('answers ENGINE_UNAVAILABLE with the orders hashes when no engine follows the shard', async () => {
    const desk = new CommandLogDesk(new ShardCommands(sender, 1, 300), { booksOf: async () => new Map() });
    const candidate = limitCandidate('0.0.7', SELL, 25_000, 10, 1n);
    const refusal = await desk.accept('0.0.7', [candidate]).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'ENGINE_UNAVAILABLE', status: 503 });
    expect((refusal as Error).message).toContain(candidate.fields.orderHash);
  });
});
