import { describe, expect, it } from 'vitest';
import type { Level } from './quoter.js';
import { planRequote, type Quote } from './requote.js';

const NOW = 1_000_000;
let nextId = 1;
const quote = (side: 'buy' | 'sell', ticks: number, options: Partial<Quote> = {}): Quote => ({
  id: nextId++,
  side,
  ticks,
  placedAt: NOW,
  partial: false,
  ...options,
});
const level = (side: 'buy' | 'sell', ticks: number, index = 0): Level => ({ side, level: index, ticks });

describe('requote plan', () => {
  it('keeps fresh quotes still on the ladder, places the missing levels and cancels the rest', () => {
    const current = [quote('buy', 99), quote('buy', 98), quote('sell', 101), quote('sell', 102)];
    const plan = planRequote(current, [level('buy', 99), level('buy', 97, 1), level('sell', 101), level('sell', 103, 1)], NOW);
    expect(plan.keep).toEqual([current[0], current[2]]);
    expect(plan.cancel).toEqual([current[1], current[3]]);
    expect(plan.place).toEqual([level('buy', 97, 1), level('sell', 103, 1)]);
  });

  it('replaces quotes that traded in part or are older than the stale mark', () => {
    const current = [quote('buy', 99, { partial: true }), quote('sell', 101, { placedAt: NOW - 1 })];
    const plan = planRequote(current, [level('buy', 99), level('sell', 101)], NOW);
    expect(plan.keep).toEqual([]);
    expect(plan.cancel).toEqual(current);
    expect(plan.place).toEqual([level('buy', 99), level('sell', 101)]);
  });

  it('holds back new levels that would trade with its own resting quotes until those are cancelled', () => {
    // The mid jumped up: the new bids at 103 and 102 would cross the old asks at 101 and 102.
    const current = [quote('buy', 99), quote('sell', 101), quote('sell', 102)];
    const plan = planRequote(current, [level('buy', 103), level('buy', 100, 1), level('sell', 105), level('sell', 106, 1)], NOW);
    expect(plan.place).toEqual([level('buy', 100, 1), level('sell', 105), level('sell', 106, 1)]);
    expect(plan.cancel).toEqual(current);
    // Once they are gone the next refresh places the rest.
    expect(planRequote([], [level('buy', 103)], NOW).place).toEqual([level('buy', 103)]);
  });

  it('keeps a quote for one level only when two rest at the same price', () => {
    const current = [quote('sell', 101), quote('sell', 101)];
    const plan = planRequote(current, [level('sell', 101)], NOW);
    expect(plan.keep).toEqual([current[0]]);
    expect(plan.cancel).toEqual([current[1]]);
  });
});
