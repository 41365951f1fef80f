/**
 * A 64-bit non-cryptographic hash (two 32-bit murmur3-style lanes) of a stream of integers.
 * Deterministic across platforms, so two replays of the same journal can compare book states.
 */
export class StateHasher {
  private h1 = 0x9e3779b9;
  private h2 = 0x85ebca6b;
  private length = 0;

  /** Adds a non-negative safe integer (or -1) to the hash. */
  add(value: number): this {
    const high = Math.floor(value / 0x1_0000_0000);
    this.mix(value >>> 0);
    this.mix(high >>> 0);
    return this;
  }

  /** Adds a value below 2^64 as `add` would a safe integer: its low and high 32-bit words. */
  addWord64(value: bigint): this {
    this.mix(Number(value & 0xffff_ffffn));
    this.mix(Number((value >> 32n) & 0xffff_ffffn));
    return this;
  }

  /** Adds a non-negative bigint of any size: its 32-bit words, low first, then their count. */
  addBig(value: bigint): this {
    let words = 0;
    for (let rest = value; rest > 0n; rest >>= 32n, words++) this.mix(Number(rest & 0xffff_ffffn));
    return this.add(words);
  }

  /** Adds a string: its UTF-16 code units, then their count. */
  addText(value: string): this {
    for (let index = 0; index < value.length; index++) this.mix(value.charCodeAt(index));
    return this.add(value.length);
  }

  digest(): string {
    let a = this.h1 ^ this.length;
    let b = this.h2 ^ this.length;
    a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
    b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
    a ^= b >>> 16;
    b ^= a >>> 13;
    a = Math.imul(a, 0xc2b2ae35) ^ (a >>> 16);
    b = Math.imul(b, 0x85ebca6b) ^ (b >>> 16);
    return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
  }

  private mix(word: number): void {
    let k = Math.imul(word, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    this.h1 ^= k;
    this.h1 = (this.h1 << 13) | (this.h1 >>> 19);
    this.h1 = (Math.imul(this.h1, 5) + 0xe6546b64) | 0;
    this.h2 = (Math.imul(this.h2 ^ word, 0x2127599b) + this.h1) | 0;
    this.length += 4;
  }
}
