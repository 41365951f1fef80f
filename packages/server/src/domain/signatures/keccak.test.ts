import { keccak_256 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keccak256, nativeKeccak } from './keccak.js';

describe('keccak256', () => {
  it('uses the native addon on this machine', () => {
    expect(nativeKeccak).toBe(true);
  });

  it('matches @noble/hashes for inputs around the 136-byte rate boundary and beyond', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (data) => {
        expect(keccak256(data)).toEqual(keccak_256(data));
      }),
      { numRuns: 300 },
    );
    for (const length of [0, 135, 136, 137, 272]) {
      const data = new Uint8Array(length).fill(0xa5);
      expect(keccak256(data)).toEqual(keccak_256(data));
    }
  });

  it('hashes a view at an offset of a larger buffer by its own bytes only', () => {
    const backing = Uint8Array.from({ length: 100 }, (_, index) => index);
    const view = backing.subarray(10, 42);
    expect(keccak256(view)).toEqual(keccak_256(view.slice()));
  });

  it('returns a fresh plain Uint8Array each time', () => {
    const first = keccak256(new Uint8Array([1]));
    const second = keccak256(new Uint8Array([2]));
    expect(first).not.toEqual(second);
    expect(Buffer.isBuffer(first)).toBe(false);
    expect(first.slice(0, 4)).toEqual(keccak_256(new Uint8Array([1])).slice(0, 4));
  });
});
