import { type BookForOrders, type OrderbookItem, toDisplay, toRaw } from '@dex/sdk';

/** What the bot needs of a `GET /books` item: its grid, tokens and last price. */
export type QuotedBookItem = BookForOrders & Pick<OrderbookItem, 'baseTokenId' | 'quoteTokenId' | 'quotePrice'>;

/**
 * A book's grid in whole numbers: prices in ticks and sizes in size steps, so the bot never rounds
 * a price or a size; display strings are made from them with the SDK's amount helpers.
 */
export class TickGrid {
  /** Digits of the price scale: those of the tick step (`0.00001` -> 5). */
  private readonly priceScale: number;
  /** One tick in units of the price scale. */
  private readonly tickUnits: bigint;
  /** One size step in raw base units. */
  readonly sizeStepRaw: bigint;
  private readonly baseDecimals: number;
  /** Size steps of the lot size: the smallest order. */
  private readonly lotSteps: bigint;
  /** The minimum notional, and the factor that brings `price units * raw size` to its scale. */
  private readonly minNotional: bigint;
  private readonly notionalFactor: bigint;

  constructor(readonly book: QuotedBookItem) {
    const { baseTokenDecimals, quoteTokenDecimals } = book;
    if (baseTokenDecimals === null || quoteTokenDecimals === null) {
      throw new Error(`book ${book.id} does not say its token decimals`);
    }
    this.baseDecimals = baseTokenDecimals;
    this.priceScale = decimalsOf(book.tickStep);
    this.tickUnits = toRaw(book.tickStep, this.priceScale);
    this.sizeStepRaw = toRaw(book.sizeStep, baseTokenDecimals);
    this.lotSteps = ceilDiv(toRaw(book.lotSize, baseTokenDecimals), this.sizeStepRaw);
    const minNotional = unitsOf(book.minNotional, this.priceScale + baseTokenDecimals);
    this.minNotional = minNotional.units;
    this.notionalFactor = 10n ** BigInt(minNotional.scale - this.priceScale - baseTokenDecimals);
  }

  get id(): number {
    return this.book.id;
  }

  /** The display price of a tick count. */
  price(ticks: number): string {
    return toDisplay(BigInt(ticks) * this.tickUnits, this.priceScale);
  }

  /** The tick count of a display price, rounded down onto the grid. */
  ticks(price: string): number {
    const { units, scale } = unitsOf(price, this.priceScale);
    const ticks = units / (this.tickUnits * 10n ** BigInt(scale - this.priceScale));
    // The engine bounds prices the same way; a larger count would lose precision as a number.
    if (ticks > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${price} is beyond the grid's range`);
    return Number(ticks);
  }

  /** The display base size of a number of size steps. */
  size(steps: number): string {
    return toDisplay(BigInt(steps) * this.sizeStepRaw, this.baseDecimals);
  }

  /** The fewest size steps an order at `ticks` may have: the lot size and the minimum notional. */
  minSteps(ticks: number): number {
    const notionalPerStep = BigInt(ticks) * this.tickUnits * this.sizeStepRaw * this.notionalFactor;
    const forNotional = notionalPerStep === 0n ? this.lotSteps : ceilDiv(this.minNotional, notionalPerStep);
    return Number(forNotional > this.lotSteps ? forNotional : this.lotSteps);
  }
}

/** Fractional digits of a display decimal. */
export function decimalsOf(display: string): number {
  const dot = display.indexOf('.');
  return dot < 0 ? 0 : display.length - dot - 1;
}

/** A display decimal in whole units of 10^-scale, the scale being at least `scale` and its own digits. */
function unitsOf(display: string, scale: number): { units: bigint; scale: number } {
  const at = Math.max(scale, decimalsOf(display));
  return { units: toRaw(display, at), scale: at };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
