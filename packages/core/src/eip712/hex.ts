import type { Hex } from './order-types.js';

/** Character code -> nibble value, -1 for anything that is not a hex digit. */
const NIBBLES = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  const lower = digit.toString(16);
  NIBBLES[lower.charCodeAt(0)] = digit;
  NIBBLES[lower.toUpperCase().charCodeAt(0)] = digit;
}

const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function nibble(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code < 128 ? (NIBBLES[code] as number) : -1;
}

/**
 * Decodes `byteCount` bytes of hex digits starting at `start` of `text` into `target` at `offset`.
 * Returns false (with `target` partly written) when a character is not a hex digit; the hasher
 * uses it to write addresses straight into its encoding buffer without an intermediate array.
 */
export function decodeHexInto(text: string, start: number, byteCount: number, target: Uint8Array, offset: number): boolean {
  for (let index = 0; index < byteCount; index++) {
    const high = nibble(text, start + 2 * index);
    const low = nibble(text, start + 2 * index + 1);
    if (high < 0 || low < 0) return false;
    target[offset + index] = (high << 4) | low;
  }
  return true;
}

/** `0x`-prefixed hex (either case, even length) to bytes; throws a RangeError on anything else. */
export function hexToBytes(hex: string): Uint8Array {
  if (!hex.startsWith('0x') || hex.length % 2 !== 0) throw new RangeError('expected 0x-prefixed hex of even length');
  const bytes = new Uint8Array((hex.length - 2) / 2);
  if (!decodeHexInto(hex, 2, bytes.length, bytes, 0)) throw new RangeError('expected 0x-prefixed hex of even length');
  return bytes;
}

/** Bytes to lower-case `0x`-prefixed hex. */
export function bytesToHex(bytes: Uint8Array): Hex {
  let hex = '0x';
  for (const byte of bytes) hex += HEX_PAIRS[byte];
  return hex as Hex;
}
