import { describe, expect, it } from 'vitest';
import { shownPrice } from './shown-price.js';

describe('shownPrice', () => {
  it('shows a price, and "0" (no trade yet) as a dash', () => {
    expect(shownPrice('0.251')).toBe('0.251');
    expect(shownPrice('0.0000001')).toBe('0.0000001');
    expect(shownPrice('0')).toBe('—');
    expect(shownPrice('0.00')).toBe('—');
  });
});
