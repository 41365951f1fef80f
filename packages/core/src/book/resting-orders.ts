import type { LevelSource } from '../quote.js';
import type { StateHasher } from '../state-hash.js';
import { BookSide } from './book-side.js';
import type { DepthSnapshot, OpenOrder } from './book-views.js';
import { OrderIndex } from './order-index.js';
import { NONE, OrderSlots } from './order-slots.js';
import type { PriceLevel } from './price-level.js';
import { BUY, SELL, type SelfTradePrevention, type Side } from './types.js';

/**
 * The resting orders of one book: both sides' price levels, the orders' slots, the index by id and
 * how many each owner has, with the views the engine and its callers read. The matching rules
 * are the engine's; this keeps what they act on consistent.
 */
export class RestingOrders {
  readonly bids = new BookSide(BUY);
  readonly asks = new BookSide(SELL);
  readonly slots = new OrderSlots();
  private readonly index = new OrderIndex();
  /** Resting orders per owner: an incoming order whose owner has none skips the self-trade checks. */
  private readonly owned = new Map<string, number>();

  get size(): number {
    return this.index.size;
  }

  side(side: Side): BookSide {
    return side === BUY ? this.bids : this.asks;
  }

  /** The slot of an open order, or NONE. */
  slotOf(id: number): number {
    return this.index.get(id);
  }

  has(id: number): boolean {
    return this.index.has(id);
  }

  /** Whether `owner` has an order resting. */
  holds(owner: string | undefined): boolean {
    return owner !== undefined && this.owned.has(owner);
  }

  /** Rests an order at the end of its level. */
  add(id: number, quantity: number, remaining: number, level: PriceLevel, owner: string | undefined): void {
    const slot = this.slots.allocate(id, quantity, remaining, level, owner);
    level.append(this.slots, slot);
    this.index.add(id, slot);
    if (owner !== undefined) this.owned.set(owner, (this.owned.get(owner) ?? 0) + 1);
  }

  /** Takes an order off its level (its remaining quantity leaves the level's total) and forgets it. */
  remove(slot: number): void {
    const { slots } = this;
    slots.level(slot).remove(slots, slot);
    const owner = slots.owner(slot);
    if (owner !== undefined) {
      const count = (this.owned.get(owner) ?? 1) - 1;
      if (count === 0) this.owned.delete(owner);
      else this.owned.set(owner, count);
    }
    this.index.delete(slots.id(slot));
    slots.release(slot);
  }

  /** Whether a price on `side` would trade with the best opposite order. */
  crosses(side: Side, price: bigint): boolean {
    const best = (side === BUY ? this.asks : this.bids).best();
    return best !== undefined && (side === BUY ? best.price <= price : best.price >= price);
  }

  get(id: number): OpenOrder | undefined {
    const slot = this.index.get(id);
    if (slot === NONE) return undefined;
    const { slots } = this;
    const level = slots.level(slot);
    const owner = slots.owner(slot);
    const open = { id, side: level.side, price: level.price, quantity: slots.quantity(slot), remaining: slots.remaining(slot) };
    return owner === undefined ? open : { ...open, owner };
  }

  /** Visits the levels of one side best first until `visit` returns false. */
  forEachLevel(side: Side, visit: (price: bigint, quantity: number) => boolean): void {
    const { levels } = this.side(side);
    for (let index = levels.length - 1; index >= 0; index--) {
      const level = levels[index] as PriceLevel;
      if (!visit(level.price, level.total)) return;
    }
  }

  /**
   * The levels of one side as an incoming order of `owner` meets them: its own resting orders left
   * out (EXPIRE_MAKER), or the walk ended at the first of them (EXPIRE_TAKER, EXPIRE_BOTH), as
   * matching does.
   */
  levelsFor(owner: string | undefined, mode: SelfTradePrevention): LevelSource {
    if (!this.holds(owner)) return this;
    return {
      forEachLevel: (side, visit) => {
        const { levels } = this.side(side);
        for (let index = levels.length - 1; index >= 0; index--) {
          const level = levels[index] as PriceLevel;
          let quantity = 0;
          let stopped = false;
          for (let slot = level.head; slot !== NONE && !stopped; slot = this.slots.next(slot)) {
            if (this.slots.owner(slot) !== owner) quantity += this.slots.remaining(slot);
            else stopped = mode !== 'EXPIRE_MAKER';
          }
          if ((quantity > 0 && !visit(level.price, quantity)) || stopped) return;
        }
      },
    };
  }

  depth(maxLevels: number, lastUpdateId: number): DepthSnapshot {
    return { bids: this.bids.top(maxLevels), asks: this.asks.top(maxLevels), lastUpdateId };
  }

  /** Adds every order, in priority order per side, to a state hash. */
  hashInto(hasher: StateHasher): void {
    for (const bookSide of [this.bids, this.asks]) {
      const { levels } = bookSide;
      hasher.add(levels.length);
      for (let index = levels.length - 1; index >= 0; index--) {
        const level = levels[index] as PriceLevel;
        hasher.addWord64(level.price).add(level.count);
        for (let slot = level.head; slot !== NONE; slot = this.slots.next(slot)) {
          hasher.add(this.slots.id(slot)).add(this.slots.quantity(slot)).add(this.slots.remaining(slot));
          hasher.addText(this.slots.owner(slot) ?? '');
        }
      }
    }
  }
}
