import { assertTokenDecimals, type Decimal, decimalToUnits, formatDecimal, parseDecimal } from './amount.js';
import { CoreError } from './errors.js';

/** A market's trading rules as operators write them: display decimals of the quote and base tokens. */
export interface GridSpec {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** Price increment, in quote per base. */
  readonly tickStep: string;
  /** Increment of an order's base size. */
  readonly sizeStep: string;
  /** Smallest base size of an order; a multiple of sizeStep. */
  readonly lotSize: string;
  /** Smallest quote value (price times size) of an order. */
  readonly minNotional: string;
}

/** Why an order's price or size does not fit the grid. */
export type GridViolation = 'BELOW_LOT_SIZE' | 'BELOW_MIN_NOTIONAL';

export type Rounding = 'down' | 'up';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function divide(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  const quotient = numerator / denominator;
  return rounding === 'up' && quotient * denominator !== numerator ? quotient + 1n : quotient;
}

/**
 * The market grid: prices are whole ticks and sizes whole size steps, so the matching engine works
 * on exact integers. A grid is valid only when one tick of price times one size step is a whole
 * number of quote raw units; that makes the quote amount of every fill exact, with no rounding.
 */
export class MarketGrid {
  readonly spec: GridSpec;
  readonly tickStep: Decimal;
  /** Base raw units in one size step. */
  readonly sizeStepRaw: bigint;
  /** Quote raw units paid for one size step at a price of one tick. */
  readonly quotePerTickStep: bigint;
  /** Smallest order size, in size steps. */
  readonly lotSteps: number;
  /** Smallest order value, in quote raw units. */
  readonly minNotionalRaw: bigint;

  constructor(spec: GridSpec) {
    assertTokenDecimals(spec.baseDecimals);
    assertTokenDecimals(spec.quoteDecimals);
    const tick = parseDecimal(spec.tickStep, 'tickStep');
    const size = parseDecimal(spec.sizeStep, 'sizeStep');
    const lot = parseDecimal(spec.lotSize, 'lotSize');
    const notional = parseDecimal(spec.minNotional, 'minNotional');
    if (tick.units === 0n) throw new CoreError('INVALID_GRID', 'tickStep must be greater than zero');
    if (size.units === 0n) throw new CoreError('INVALID_GRID', 'sizeStep must be greater than zero');

    const sizeStepRaw = decimalToUnits(size, spec.baseDecimals);
    if (sizeStepRaw === undefined) {
      throw new CoreError('INVALID_GRID', `sizeStep is finer than the base token's ${spec.baseDecimals} decimals`);
    }
    const lotRaw = decimalToUnits(lot, spec.baseDecimals);
    if (lotRaw === undefined || lotRaw === 0n || lotRaw % sizeStepRaw !== 0n) {
      throw new CoreError('INVALID_GRID', 'lotSize must be a positive multiple of sizeStep');
    }
    const minNotionalRaw = decimalToUnits(notional, spec.quoteDecimals);
    if (minNotionalRaw === undefined) {
      throw new CoreError('INVALID_GRID', `minNotional is finer than the quote token's ${spec.quoteDecimals} decimals`);
    }
    const scaledQuote = tick.units * size.units * 10n ** BigInt(spec.quoteDecimals);
    const scaleDivisor = 10n ** BigInt(tick.scale + size.scale);
    if (scaledQuote % scaleDivisor !== 0n) {
      throw new CoreError('INVALID_GRID', 'tickStep times sizeStep must be a whole number of quote raw units', {
        details: 'choose a coarser tickStep or sizeStep so that every fill is exact',
      });
    }
    const lotSteps = lotRaw / sizeStepRaw;
    if (lotSteps > MAX_SAFE) throw new CoreError('INVALID_GRID', 'lotSize is too large for sizeStep');

    this.spec = spec;
    this.tickStep = tick;
    this.sizeStepRaw = sizeStepRaw;
    this.quotePerTickStep = scaledQuote / scaleDivisor;
    this.lotSteps = Number(lotSteps);
    this.minNotionalRaw = minNotionalRaw;
  }

  /** Display price of a tick count. */
  formatPrice(ticks: number): string {
    return formatDecimal(BigInt(ticks) * this.tickStep.units, this.tickStep.scale);
  }

  /** Tick count of a display price; the price must lie on the grid. */
  parsePrice(price: string, field = 'price'): number {
    const value = parseDecimal(price, field);
    const units = decimalToUnits(value, this.tickStep.scale);
    if (units === undefined || units % this.tickStep.units !== 0n) {
      throw new CoreError('OFF_GRID', `${field} must be a multiple of the tick step ${this.spec.tickStep}`);
    }
    return this.toSafeCount(units / this.tickStep.units, field);
  }

  /** Base raw units of a size in steps. */
  baseAmount(steps: number): bigint {
    return BigInt(steps) * this.sizeStepRaw;
  }

  /** Size steps of an exact on-grid base amount. */
  baseSteps(baseRaw: bigint, field = 'amount'): number {
    if (baseRaw % this.sizeStepRaw !== 0n) {
      throw new CoreError('OFF_GRID', `${field} must be a multiple of the size step ${this.spec.sizeStep}`);
    }
    return this.toSafeCount(baseRaw / this.sizeStepRaw, field);
  }

  /** Whole size steps that fit in a base amount (the amount floored onto the grid). */
  floorBaseSteps(baseRaw: bigint): number {
    const steps = baseRaw / this.sizeStepRaw;
    return steps > MAX_SAFE ? Number.MAX_SAFE_INTEGER : Number(steps);
  }

  /** Exact quote raw units for a size at a price. */
  quoteAmount(ticks: number, steps: number): bigint {
    return BigInt(ticks) * BigInt(steps) * this.quotePerTickStep;
  }

  /**
   * The tick price of a raw exchange rate (quote raw per base raw), rounded onto the grid. Used to
   * turn a signed order's input and output amounts into a limit price: round up for a seller's
   * minimum, down for a buyer's maximum, so the grid price never breaks the signed limit.
   */
  ticksAtRate(quoteRaw: bigint, baseRaw: bigint, rounding: Rounding): number {
    if (baseRaw <= 0n) throw new CoreError('OUT_OF_RANGE', 'base amount must be greater than zero');
    return this.toSafeCount(divide(quoteRaw * this.sizeStepRaw, baseRaw * this.quotePerTickStep, rounding), 'price');
  }

  /** Whether an order of this price and size meets the lot size and minimum notional. */
  check(ticks: number, steps: number): GridViolation | undefined {
    if (steps < this.lotSteps) return 'BELOW_LOT_SIZE';
    if (this.quoteAmount(ticks, steps) < this.minNotionalRaw) return 'BELOW_MIN_NOTIONAL';
    return undefined;
  }

  formatBase(baseRaw: bigint): string {
    return formatDecimal(baseRaw, this.spec.baseDecimals);
  }

  formatQuote(quoteRaw: bigint): string {
    return formatDecimal(quoteRaw, this.spec.quoteDecimals);
  }

  private toSafeCount(count: bigint, field: string): number {
    if (count > MAX_SAFE) throw new CoreError('OUT_OF_RANGE', `${field} is too large for this market`);
    return Number(count);
  }
}
