import { SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';

let desk: DeskParts;

beforeEach(async () => {
  desk = await openDeskParts();
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
      desk.acceptance.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, one as bigint)]),
      desk.acceptance.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_100, 10, two as bigint)]),
    ]);
    expect(desk.commits).toHaveLength(1);
    expect(desk.commits[0]?.orderEvents.map((event) => event.orderId)).toEqual(accepted.flat().map((record) => record.id));
    expect(await desk.store.orders.byHashes(accepted.flat().map((record) => record.orderHash))).toHaveLength(2);
  });

  it('refuses all further work once a commit group could not be stored', async () => {
    // The turn reads nothing; its commit, after the store is gone, fails.
    const raised = desk.cancellations.cancelBelowFloor('0.0.7', 5n);
    void desk.store.close();
    await expect(raised).rejects.toMatchObject({ code: 'TRADING_UNAVAILABLE' });
    await expect(desk.sequencer.run(async () => 'later')).rejects.toMatchObject({ code: 'TRADING_UNAVAILABLE' });
    expect(desk.logs()).toContain('trading is suspended until a restart');
  });
});
