import { describe, expect, it } from 'vitest';
import { addressOfKey, devnetSigner, generateDevnetKey } from './devnet-key.js';

describe('devnet keys', () => {
  it('draws 32 random bytes as a 0x key with an address', () => {
    const key = generateDevnetKey();
    expect(key).toMatch(/^0x[0-9a-f]{64}$/);
    expect(devnetSigner(key).account).toMatch(/^0x[0-9a-f]{40}$/);
    expect(generateDevnetKey()).not.toBe(key);
  });

  it('draws again when the bytes are no valid secp256k1 key', () => {
    const draws = [new Uint8Array(32), new Uint8Array(32).fill(1)];
    const key = generateDevnetKey((bytes) => {
      bytes.set(draws.shift() ?? bytes);
      return bytes;
    });
    expect(key).toBe(`0x${'01'.repeat(32)}`);
  });

  it('gives no address for a key outside the curve', () => {
    expect(addressOfKey(`0x${'00'.repeat(32)}`)).toBeUndefined();
    expect(addressOfKey(`0x${'ff'.repeat(32)}`)).toBeUndefined();
    expect(addressOfKey(`0x${'01'.repeat(32)}`)).toMatch(/^0x[0-9a-f]{40}$/);
  });
});
