import type { PriceLevel } from './price-level.js';

/** No slot: the end of a level's list, or an order that is not open. */
export const NONE = -1;

/**
 * Resting orders stored column by column in typed arrays; a slot number is an order's row (an
 * order's side and price are those of its level). Compared
 * with one object per order this keeps hundreds of thousands of resting orders out of the garbage
 * collector's way (it measured about a quarter of the run time on the deep workload). Freed slots
 * are reused through a free list threaded through `next`.
 */
export class OrderSlots {
  private ids: Float64Array;
  private quantities: Float64Array;
  private remainings: Float64Array;
  private prevs: Int32Array;
  private nexts: Int32Array;
  private levels: (PriceLevel | undefined)[];
  private owners: (string | undefined)[];
  private freeHead = NONE;
  private used = 0;

  constructor(initialCapacity = 1024) {
    this.ids = new Float64Array(initialCapacity);
    this.quantities = new Float64Array(initialCapacity);
    this.remainings = new Float64Array(initialCapacity);
    this.prevs = new Int32Array(initialCapacity);
    this.nexts = new Int32Array(initialCapacity);
    this.levels = new Array<PriceLevel | undefined>(initialCapacity).fill(undefined);
    this.owners = new Array<string | undefined>(initialCapacity).fill(undefined);
  }

  allocate(id: number, quantity: number, remaining: number, level: PriceLevel, owner: string | undefined): number {
    let slot = this.freeHead;
    if (slot !== NONE) {
      this.freeHead = this.nexts[slot] as number;
    } else {
      if (this.used === this.ids.length) this.grow();
      slot = this.used++;
    }
    this.ids[slot] = id;
    this.quantities[slot] = quantity;
    this.remainings[slot] = remaining;
    this.prevs[slot] = NONE;
    this.nexts[slot] = NONE;
    this.levels[slot] = level;
    this.owners[slot] = owner;
    return slot;
  }

  release(slot: number): void {
    this.levels[slot] = undefined;
    this.owners[slot] = undefined;
    this.nexts[slot] = this.freeHead;
    this.freeHead = slot;
  }

  id(slot: number): number {
    return this.ids[slot] as number;
  }

  quantity(slot: number): number {
    return this.quantities[slot] as number;
  }

  remaining(slot: number): number {
    return this.remainings[slot] as number;
  }

  setRemaining(slot: number, remaining: number): void {
    this.remainings[slot] = remaining;
  }

  prev(slot: number): number {
    return this.prevs[slot] as number;
  }

  next(slot: number): number {
    return this.nexts[slot] as number;
  }

  setPrev(slot: number, prev: number): void {
    this.prevs[slot] = prev;
  }

  setNext(slot: number, next: number): void {
    this.nexts[slot] = next;
  }

  owner(slot: number): string | undefined {
    return this.owners[slot];
  }

  level(slot: number): PriceLevel {
    return this.levels[slot] as PriceLevel;
  }

  private grow(): void {
    const capacity = this.ids.length * 2;
    const widen = <T extends Float64Array | Int32Array>(old: T, make: (size: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.ids = widen(this.ids, (size) => new Float64Array(size));
    this.quantities = widen(this.quantities, (size) => new Float64Array(size));
    this.remainings = widen(this.remainings, (size) => new Float64Array(size));
    this.prevs = widen(this.prevs, (size) => new Int32Array(size));
    this.nexts = widen(this.nexts, (size) => new Int32Array(size));
    this.levels.length = capacity;
    this.levels.fill(undefined, this.used);
    this.owners.length = capacity;
    this.owners.fill(undefined, this.used);
  }
}
