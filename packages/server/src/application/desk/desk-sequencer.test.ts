import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../ports/store/ports.js';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';
import { describeEachEngine } from '../../test-support/store-engines.js';
import { TRADING_PAUSE_MS } from './desk-sequencer.js';

describeEachEngine('the desk sequencer on the store', (stores) => {
  let desk: DeskParts;

  beforeEach(async () => {
    desk = await openDeskParts({ openStore: stores.open });
  });
  afterEach(async () => {
    await desk.close();
  });

  describe('the desk sequencer', () => {
    it('runs turns one at a time, in the order they were asked for', async () => {
      const trace: string[] = [];
      const turn = (name: string, pause: number) =>
        desk.sequencer.run(async () => {
          trace.push(`${name} starts`);
          await new Promise((resolve) => setTimeout(resolve, pause));
          trace.push(`${name} ends`);
        });
      await Promise.all([turn('slow', 20), turn('fast', 0)]);
      expect(trace).toEqual(['slow starts', 'slow ends', 'fast starts', 'fast ends']);
    });

    it('goes on after a turn that failed', async () => {
      const failed = desk.sequencer.run(async () => {
        throw new Error('bad turn');
      });
      const next = desk.sequencer.run(async () => 'next');
      await expect(failed).rejects.toThrow('bad turn');
      await expect(next).resolves.toBe('next');
    });

    it('stores the turns that queue up together as one commit group, published once, before answering', async () => {
      const [one, two] = await desk.nonces('0.0.7', 2);
      const accepted = await Promise.all([
        desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, one as bigint)]),
        desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_100, 10, two as bigint)]),
      ]);
      expect(desk.commits).toHaveLength(1);
      expect(desk.commits[0]?.orderEvents.map((event) => event.orderId)).toEqual(accepted.flat().map((record) => record.id));
      expect(await desk.store.orders.byHashes(accepted.flat().map((record) => record.orderHash))).toHaveLength(2);
    });

    it("numbers each order's events from 1, within one turn, across the turns of a commit group and across groups", async () => {
      const [ask] = await desk.nonces('0.0.7', 1);
      const [bid, second] = await desk.nonces('0.0.8', 2);
      const [maker] = await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 30, ask as bigint)]);
      // Two takers in one commit group: the maker's fills come from two turns.
      await Promise.all([
        desk.trading.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_000, 10, bid as bigint)]),
        desk.trading.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_000, 20, second as bigint)]),
      ]);
      if (maker === undefined) throw new Error('no maker');
      const history = await desk.store.orders.history(maker.id);
      expect(history.map((event) => [event.type, event.sequence])).toEqual([
        ['CREATED', 1],
        ['PARTIAL_FILL', 2],
        ['FILLED', 3],
      ]);
      const published = desk.commits.flatMap((commit) => commit.orderEvents).filter((event) => event.orderId === maker.id);
      expect(published.map((event) => [event.id, event.sequence])).toEqual(history.map((event) => [event.id, event.sequence]));
      // A taker's CREATED and FILLED land in one statement.
      for (const taker of desk.commits.flatMap((commit) => commit.orderEvents).filter((event) => event.account === '0.0.8')) {
        expect(taker.sequence).toBe(taker.type === 'CREATED' ? 1 : 2);
      }
    });

    it('stores the position of the command a turn applied with that turn, and of a refused command too', async () => {
      // A turn that raises a nonce floor, as a cancel/all command would.
      const raiseFloor = async () => {
        const turn = desk.books.turn(desk.clock.now());
        turn.raiseNonceFloor('0.0.7', 5n);
        desk.sequencer.stage(turn);
      };
      await desk.sequencer.run(raiseFloor, { shard: 2, seq: 7n });
      expect(await desk.store.orders.commandPosition(2)).toBe(7n);
      expect(await desk.store.nonces.floor('0.0.7')).toBe(5n);
      const refused = desk.sequencer.run(
        async () => {
          throw new Error('refused');
        },
        { shard: 2, seq: 9n },
      );
      await expect(refused).rejects.toThrow('refused');
      // Stored, though no turn wrote anything: the refusal was the command's answer.
      await desk.sequencer.run(async () => undefined);
      expect(await desk.store.orders.commandPosition(2)).toBe(9n);
      expect(await desk.store.orders.commandPosition(3)).toBe(0n);
    });

    it('writes a command position in the transaction of its turns: a position that cannot be stored keeps the turns out too', async () => {
      const raiseFloor = async () => {
        const turn = desk.books.turn(desk.clock.now());
        turn.raiseNonceFloor('0.0.7', 5n);
        desk.sequencer.stage(turn);
      };
      const past = desk.sequencer.run(raiseFloor, { shard: 4, seq: 2n ** 60n });
      await expect(past).rejects.toMatchObject({ code: 'TRADING_UNAVAILABLE' });
      expect(await desk.store.nonces.floor('0.0.7')).toBe(0n);
      expect(await desk.store.orders.commandPosition(4)).toBe(0n);
    });

    it('never moves a stored position back', async () => {
      await desk.sequencer.run(async () => undefined, { shard: 1, seq: 12n });
      await desk.sequencer.run(async () => undefined, { shard: 1, seq: 5n });
      expect(await desk.store.orders.commandPosition(1)).toBe(12n);
    });

    it('refuses all further work while the store it failed on cannot be read to rebuild the books', async () => {
      // The turn reads nothing; its commit, after the store is gone, fails.
      const raised = desk.trading.cancelBelowFloor('0.0.7', 5n);
      void desk.store.close();
      await expect(raised).rejects.toMatchObject({ code: 'TRADING_UNAVAILABLE' });
      await expect(desk.sequencer.run(async () => 'later')).rejects.toMatchObject({ code: 'TRADING_UNAVAILABLE' });
      await new Promise((resolve) => setTimeout(resolve, TRADING_PAUSE_MS + 50));
      await expect(desk.sequencer.run(async () => 'later')).rejects.toMatchObject({ code: 'TRADING_UNAVAILABLE' });
      expect(desk.logs()).toContain('trading is suspended until the store takes writes again');
      expect(desk.logs()).toContain('the books could not be rebuilt from the store');
    });

    it('after a failed commit, rebuilds the books from the store: the unstored trade is undone and trading resumes', async () => {
      const [ask] = await desk.nonces('0.0.7', 1);
      const [bid] = await desk.nonces('0.0.8', 1);
      const [later] = await desk.nonces('0.0.9', 1);
      const [resting] = await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, ask as bigint)]);
      // The disk fills: the crossing bid matches in memory, but its commit group is not stored.
      const commitTurns = desk.store.orders.commitTurns.bind(desk.store.orders);
      desk.store.orders.commitTurns = async () => {
        throw new StoreUnavailableError('database or disk is full');
      };
      await expect(desk.trading.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_000, 10, bid as bigint)])).rejects.toMatchObject(
        { code: 'TRADING_UNAVAILABLE' },
      );
      // Refused at once until the pause has passed: a full disk is not tried on every request.
      await expect(desk.sequencer.run(async () => 'soon')).rejects.toMatchObject({ code: 'TRADING_UNAVAILABLE' });
      // Meanwhile the books are already back as the store holds them: the ask rests whole.
      expect(desk.books.live.get(resting?.id ?? 0)).toMatchObject({ filledSteps: 0 });
      expect(desk.engines.engine(1)?.getOrder(resting?.id ?? 0)).toMatchObject({ remaining: 10 });
      desk.store.orders.commitTurns = commitTurns;
      await new Promise((resolve) => setTimeout(resolve, TRADING_PAUSE_MS + 50));

      // The ask rests again whole, as the store holds it; a new bid takes it, with the next stored id.
      const [taker] = await desk.trading.accept('0.0.9', [limitCandidate('0.0.9', BUY, 25_000, 10, later as bigint)]);
      expect(taker?.id).toBe((resting?.id ?? 0) + 1);
      expect(taker?.status).toBe('FILLED');
      const [stored] = await desk.store.orders.byHashes([resting?.orderHash ?? '']);
      expect(stored).toMatchObject({ status: 'FILLED', filledSteps: 10 });
      const { trades } = await desk.store.trades.page(1, 'asc', 0, 10);
      expect(trades.map((trade) => trade.takerOrderId)).toEqual([taker?.id]);
      expect(desk.logs()).toContain('trading resumed');
    });
  });
});
