import { describe, expect, it } from 'vitest';
import { cancelAllFloor } from './nonce-floor.js';

describe('cancelAllFloor', () => {
  it('is one above the highest open nonce, exactly, beyond 2^53', () => {
    expect(cancelAllFloor([{ nonce: '5' }, { nonce: '9007199254740993' }, { nonce: '7' }])).toBe(9007199254740994n);
  });

  it('is 1 with nothing open', () => {
    expect(cancelAllFloor([])).toBe(1n);
  });
});
