/**
 * A small seeded generator (mulberry32): the same seed gives the same prices, sizes and takes, so
 * tests are deterministic. Not for anything secret.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A whole number from `min` to `max`, both included (`max - min` below 2^32). */
  int(min: number, max: number): number {
    return min + (this.next() % (max - min + 1));
  }

  /** True with probability `p` (0 to 1). */
  chance(p: number): boolean {
    return this.next() < p * 2 ** 32;
  }
}
