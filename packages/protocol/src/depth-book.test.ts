import { formatDecimal } from '@dex/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DepthBook } from './depth-book.js';
import type { DepthLevel } from './market-data.js';
import type { DepthDiff } from './streams.js';

/** One engine update: a level of one side set to a size (0 removes it). Prices in ticks of 0.001, sizes in steps of 0.1. */
interface Update {
  readonly bid: boolean;
  readonly ticks: number;
  readonly steps: number;
}

const update = fc.record({ bid: fc.boolean(), ticks: fc.integer({ min: 1, max: 40 }), steps: fc.integer({ min: 0, max: 5 }) });
const price = (ticks: number) => formatDecimal(BigInt(ticks), 3);
const size = (steps: number) => formatDecimal(BigInt(steps), 1);

/** The book after the first `count` updates, as `GET /depth` shows it: best first, no empty level. */
function bookAfter(updates: readonly Update[], count: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  for (const { bid, ticks, steps } of updates.slice(0, count)) {
    const side = bid ? bids : asks;
    if (steps === 0) side.delete(ticks);
    else side.set(ticks, steps);
  }
  const levels = (side: Map<number, number>, descending: boolean): DepthLevel[] =>
    [...side].sort(([a], [b]) => (descending ? b - a : a - b)).map(([ticks, steps]): DepthLevel => [price(ticks), size(steps)]);
  return { bids: levels(bids, true), asks: levels(asks, false) };
}

/** Updates `from..to` (1-based, inclusive) folded into one diff: the last size of every level they touched. */
function diffOf(updates: readonly Update[], from: number, to: number): DepthDiff {
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  for (const { bid, ticks, steps } of updates.slice(from - 1, to)) (bid ? bids : asks).set(ticks, steps);
  const levels = (side: Map<number, number>) => [...side].map(([ticks, steps]): DepthLevel => [price(ticks), size(steps)]);
  return {
    type: 'DEPTH_DIFF',
    seq: 0,
    orderbookId: '1',
    firstUpdateId: from,
    finalUpdateId: to,
    timestamp: to,
    bids: levels(bids),
    asks: levels(asks),
  };
}

/** A run of updates cut into consecutive diffs at the given points. */
function diffsOf(updates: readonly Update[], cuts: readonly number[]): DepthDiff[] {
  const ends = [...new Set([...cuts.map((cut) => 1 + (cut % updates.length)), updates.length])].sort((a, b) => a - b);
  return ends.map((end, index) => diffOf(updates, index === 0 ? 1 : (ends[index - 1] as number) + 1, end));
}

const view = (book: DepthBook) => ({ lastUpdateId: book.lastUpdateId, bids: book.bids(), asks: book.asks() });

const scenario = fc
  .record({
    updates: fc.array(update, { minLength: 1, maxLength: 60 }),
    cuts: fc.array(fc.nat(), { maxLength: 20 }),
    snapshotAt: fc.nat(),
  })
  .map(({ updates, cuts, snapshotAt }) => ({
    updates,
    diffs: diffsOf(updates, cuts),
    snapshotAt: snapshotAt % (updates.length + 1),
  }));

describe('DepthBook', () => {
  it('ends equal to the book after every update, whatever snapshot it starts from and however updates fold into diffs', () => {
    fc.assert(
      fc.property(scenario, ({ updates, diffs, snapshotAt }) => {
        const book = new DepthBook({ orderbookId: 1, lastUpdateId: snapshotAt, timestamp: 0, ...bookAfter(updates, snapshotAt) });
        // Every diff the stream buffered goes in: those the snapshot holds change nothing, one straddling it applies.
        const applied = diffs.map((diff) => book.apply(diff));
        expect(view(book)).toEqual({ lastUpdateId: updates.length, ...bookAfter(updates, updates.length) });
        expect(applied).toEqual(diffs.map((diff) => diff.finalUpdateId > snapshotAt));
      }),
    );
  });

  it('refuses a diff after a lost one, and stays as it was', () => {
    fc.assert(
      fc.property(scenario, fc.nat(), ({ updates, diffs, snapshotAt }, pick) => {
        const later = diffs.filter((diff) => diff.finalUpdateId > snapshotAt);
        fc.pre(later.length >= 2);
        const lost = pick % (later.length - 1);
        const book = new DepthBook({ orderbookId: 1, lastUpdateId: snapshotAt, timestamp: 0, ...bookAfter(updates, snapshotAt) });
        for (const diff of later.slice(0, lost)) book.apply(diff);
        const before = view(book);
        expect(() => book.apply(later[lost + 1] as DepthDiff)).toThrow(
          expect.objectContaining({ name: 'StreamFaultError', failure: 'update-gap' }),
        );
        expect(view(book)).toEqual(before);
      }),
    );
  });

  it('keeps levels best first by value, not by spelling', () => {
    const book = new DepthBook({ orderbookId: 1, lastUpdateId: 0, timestamp: 0, bids: [['9', '1']], asks: [['10', '1']] });
    book.apply({
      ...diffOf([], 1, 1),
      bids: [
        ['10.5', '2'],
        ['9.50', '1'],
      ],
      asks: [
        ['9.9', '3'],
        ['10.0', '0'],
      ],
    });
    expect(book.bids()).toEqual([
      ['10.5', '2'],
      ['9.50', '1'],
      ['9', '1'],
    ]);
    expect(book.asks()).toEqual([['9.9', '3']]);
    expect(book.bids(2)).toEqual([
      ['10.5', '2'],
      ['9.50', '1'],
    ]);
    expect(book.bestBid()).toEqual(['10.5', '2']);
    expect(book.bestAsk()).toEqual(['9.9', '3']);
  });

  it.each<[string, Partial<Pick<DepthDiff, 'bids' | 'asks'>>]>([
    ['a price', { bids: [['0x10', '1']] }],
    ['a size', { asks: [['1', '-1']] }],
    ['an exponent', { asks: [['1e3', '1']] }],
  ])('refuses a diff with %s that is not a decimal, and stays as it was', (_what, levels) => {
    const book = new DepthBook({ orderbookId: 1, lastUpdateId: 0, timestamp: 0, bids: [['1', '1']], asks: [] });
    const diff: DepthDiff = { ...diffOf([], 1, 1), bids: [['2', '1']], ...levels };
    expect(() => book.apply(diff)).toThrow(expect.objectContaining({ name: 'StreamFaultError', failure: 'malformed' }));
    expect(view(book)).toEqual({ lastUpdateId: 0, bids: [['1', '1']], asks: [] });
  });
});
