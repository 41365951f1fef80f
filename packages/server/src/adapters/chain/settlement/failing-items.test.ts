import { describe, expect, it } from 'vitest';
import { FailingItems } from './failing-items.js';

/** The times (ms, one step of 250 ms apart) at which `key` is due over `steps` steps. */
function dueTimes(items: FailingItems, key: string, steps: number, fails: (at: number) => boolean): number[] {
  const due: number[] = [];
  for (let at = 0; at < steps * 250; at += 250) {
    if (!items.due(key, at)) continue;
    due.push(at);
    if (fails(at)) items.failed(key, at);
    else items.succeeded(key);
  }
  return due;
}

describe('FailingItems', () => {
  it('sets an item that keeps failing aside for 250 ms, 500 ms ... up to 4 s, and keeps the others due', () => {
    const items = new FailingItems();
    expect(dueTimes(items, 'floor:a', 80, () => true)).toEqual([0, 250, 750, 1_750, 3_750, 7_750, 11_750, 15_750, 19_750]);
    expect(items.due('floor:b', 19_750)).toBe(true);
    expect(items.waiting('floor', 19_750)).toEqual(['a']);
    expect(items.waiting('floor', 23_750)).toEqual([]);
    expect(items.waiting('swapper', 19_750)).toEqual([]);
  });

  it('forgets an item once it succeeds', () => {
    const items = new FailingItems();
    expect(dueTimes(items, 'swapper:0x1', 12, (at) => at < 1_000)).toEqual([0, 250, 750, 1_750, 2_000, 2_250, 2_500, 2_750]);
    expect(items.waiting('swapper', 2_750)).toEqual([]);
  });
});
