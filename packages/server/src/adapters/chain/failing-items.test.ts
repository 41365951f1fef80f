import { describe, expect, it } from 'vitest';
import { FailingItems } from './failing-items.js';

/** The rounds, of the next `rounds`, in which `key` is due. */
function dueRounds(items: FailingItems, key: string, rounds: number, fails: (round: number) => boolean): number[] {
  const due: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    items.nextRound();
    if (!items.due(key)) continue;
    due.push(round);
    if (fails(round)) items.failed(key);
    else items.succeeded(key);
  }
  return due;
}

describe('FailingItems', () => {
  it('sets an item that keeps failing aside for 2, 4, 8 ... up to 64 rounds, and keeps the others due', () => {
    const items = new FailingItems();
    expect(dueRounds(items, 'floor:a', 300, () => true)).toEqual([1, 3, 7, 15, 31, 63, 127, 191, 255]);
    expect(items.due('floor:b')).toBe(true);
    expect(items.waiting('floor')).toEqual(['a']);
    expect(items.waiting('swapper')).toEqual([]);
  });

  it('forgets an item once it succeeds', () => {
    const items = new FailingItems();
    expect(dueRounds(items, 'swapper:0x1', 12, (round) => round < 5)).toEqual([1, 3, 7, 8, 9, 10, 11, 12]);
    expect(items.waiting('swapper')).toEqual([]);
  });
});
