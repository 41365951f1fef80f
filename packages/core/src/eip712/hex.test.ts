import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './hex.js';

describe('hex', () => {
  it('round-trips bytes and matches Buffer hex', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const hex = bytesToHex(bytes);
        expect(hex).toBe(`0x${Buffer.from(bytes).toString('hex')}`);
        expect(hexToBytes(hex)).toEqual(bytes);
        expect(hexToBytes(hex.toUpperCase().replace('0X', '0x'))).toEqual(bytes);
      }),
    );
  });

  it.each(['', '00', '0x0', '0xg0', '0x 0', '0x٠٠'])('rejects %j', (text) => {
    expect(() => hexToBytes(text)).toThrow(RangeError);
  });
});
