import { describe, expect, it } from 'vitest';
import { pipsAsPercent } from './fee-percent.js';

describe('pipsAsPercent', () => {
  it('says pips as an exact percent', () => {
    expect(pipsAsPercent(2_500)).toBe('0.25%');
    expect(pipsAsPercent(10_000)).toBe('1%');
    expect(pipsAsPercent(1)).toBe('0.0001%');
    expect(pipsAsPercent(0)).toBe('0%');
  });
});
