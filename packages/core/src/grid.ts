import { assertTokenDecimals, type Decimal, decimalToUnits, formatDecimal, fromDisplayAmount, parseDecimal } from './amount.js';
import { CoreError } from './errors.js';
import { divide, type Ratio, type Rounding, ratio } from './rational.js';

/**
 * A market's trading rules: the prices and sizes an order may have. Steps are display decimals;
 * the lot and the minimum notional are raw units, as `GET /books` serves them.
 */
export interface GridSpec {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** Price increment, in quote per base. */
  readonly tickStep: string;
  /** Increment of an order's base size. */
  readonly sizeStep: string;
  /** Smallest base size of an order, in base raw units; a multiple of the size step. */
  readonly lotSize: bigint;
  /** Smallest quote value of an order, in quote raw units. */
  readonly minNotional: bigint;
}

/** A grid as operators write it: the lot size and minimum notional as display decimals too. */
export interface DisplayGridSpec extends Omit<GridSpec, 'lotSize' | 'minNotional'> {
  readonly lotSize: string;
  readonly minNotional: string;
}

/** Why an order's size does not fit the grid. */
export type GridViolation = 'BELOW_LOT_SIZE' | 'BELOW_MIN_NOTIONAL';

/**
 * The largest price in ticks: prices are 64-bit integers as stored (as exchange-core keeps them),
 * which leaves a tick of 1e-14 room for prices up to 92,233 quote per base.
 */
export const MAX_PRICE_TICKS = (1n << 63n) - 1n;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A grid whose lot size and minimum notional are display decimals, in raw units. */
export function gridSpecOfDisplay(spec: DisplayGridSpec): GridSpec {
  return {
    ...spec,
    lotSize: fromDisplayAmount(spec.lotSize, spec.baseDecimals, 'lotSize'),
    minNotional: fromDisplayAmount(spec.minNotional, spec.quoteDecimals, 'minNotional'),
  };
}

/**
 * The market grid: prices are whole ticks and sizes whole size steps, so the matching engine works
 * on integers. Base amounts are always exact (a whole number of size steps of base raw units).
 * One size step at one tick is worth `stepValue` quote raw units, a fraction when the tick times
 * the size step is finer than one raw unit of the quote token (the live HBAR/USDC and WETH/USDC
 * books): the quote amount of a trade is then rounded, as `fill-amounts.ts` defines.
 */
export class MarketGrid {
  readonly spec: GridSpec;
  readonly tickStep: Decimal;
  /** Base raw units in one size step. */
  readonly sizeStepRaw: bigint;
  /** Quote raw units one size step costs at a price of one tick, in lowest terms. */
  readonly stepValue: Ratio;
  /** Whether every size at every price is worth a whole number of quote raw units. */
  readonly isExact: boolean;
  /** Smallest order size, in size steps. */
  readonly lotSteps: number;
  /** Smallest order value, in quote raw units. */
  readonly minNotionalRaw: bigint;

  constructor(spec: GridSpec) {
    assertTokenDecimals(spec.baseDecimals);
    assertTokenDecimals(spec.quoteDecimals);
    const tick = parseDecimal(spec.tickStep, 'tickStep');
    const size = parseDecimal(spec.sizeStep, 'sizeStep');
    if (tick.units === 0n) throw new CoreError('INVALID_GRID', 'tickStep must be greater than zero');
    if (size.units === 0n) throw new CoreError('INVALID_GRID', 'sizeStep must be greater than zero');

    const sizeStepRaw = decimalToUnits(size, spec.baseDecimals);
    if (sizeStepRaw === undefined) {
      throw new CoreError('INVALID_GRID', `sizeStep is finer than the base token's ${spec.baseDecimals} decimals`);
    }
    if (typeof spec.lotSize !== 'bigint' || spec.lotSize <= 0n || spec.lotSize % sizeStepRaw !== 0n) {
      throw new CoreError('INVALID_GRID', `lotSize must be a positive multiple of sizeStep (${sizeStepRaw} base raw units)`);
    }
    if (typeof spec.minNotional !== 'bigint' || spec.minNotional < 0n) {
      throw new CoreError('INVALID_GRID', 'minNotional must be a non-negative number of quote raw units');
    }
    const lotSteps = spec.lotSize / sizeStepRaw;
    if (lotSteps > MAX_SAFE) throw new CoreError('INVALID_GRID', 'lotSize is too large for sizeStep');

    // tick × size × 10^quoteDecimals / 10^(tick scale + size scale), in lowest terms.
    const stepValue = ratio(tick.units * size.units * 10n ** BigInt(spec.quoteDecimals), 10n ** BigInt(tick.scale + size.scale));

    this.spec = spec;
    this.tickStep = tick;
    this.sizeStepRaw = sizeStepRaw;
    this.stepValue = stepValue;
    this.isExact = this.stepValue.den === 1n;
    this.lotSteps = Number(lotSteps);
    this.minNotionalRaw = spec.minNotional;
  }

  /** Display price of a tick count. */
  formatPrice(ticks: bigint): string {
    return formatDecimal(ticks * this.tickStep.units, this.tickStep.scale);
  }

  /** Tick count of a display price; the price must lie on the grid. */
  parsePrice(price: string, field = 'price'): bigint {
    const value = parseDecimal(price, field);
    const units = decimalToUnits(value, this.tickStep.scale);
    if (units === undefined || units % this.tickStep.units !== 0n) {
      throw new CoreError('OFF_GRID', `${field} must be a multiple of the tick step ${this.spec.tickStep}`);
    }
    const ticks = units / this.tickStep.units;
    if (ticks > MAX_PRICE_TICKS) throw new CoreError('OUT_OF_RANGE', `${field} is too high for this market`);
    return ticks;
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
    const steps = baseRaw / this.sizeStepRaw;
    if (steps > MAX_SAFE) throw new CoreError('OUT_OF_RANGE', `${field} is too large for this market`);
    return Number(steps);
  }

  /** Whole size steps that fit in a base amount (the amount floored onto the grid). */
  floorBaseSteps(baseRaw: bigint): number {
    const steps = baseRaw / this.sizeStepRaw;
    return steps > MAX_SAFE ? Number.MAX_SAFE_INTEGER : Number(steps);
  }

  /** Quote raw units of a size at a price: exact on an exact grid, else rounded the given way. */
  quoteAmount(ticks: bigint, steps: number, rounding: Rounding): bigint {
    const { num, den } = this.stepValue;
    return divide(ticks * BigInt(steps) * num, den, rounding);
  }

  /**
   * The tick price of a raw exchange rate (quote raw per base raw), rounded onto the grid. Used to
   * turn a signed order's input and output amounts into a limit price: round up for a seller's
   * minimum, down for a buyer's maximum, so the grid price never breaks the signed limit.
   */
  ticksAtRate(quoteRaw: bigint, baseRaw: bigint, rounding: Rounding): bigint {
    if (baseRaw <= 0n) throw new CoreError('OUT_OF_RANGE', 'base amount must be greater than zero');
    const { num, den } = this.stepValue;
    return divide(quoteRaw * this.sizeStepRaw * den, baseRaw * num, rounding);
  }

  /** Whether an order of this size and quote value meets the lot size and minimum notional. */
  check(steps: number, quoteRaw: bigint): GridViolation | undefined {
    if (steps < this.lotSteps) return 'BELOW_LOT_SIZE';
    if (quoteRaw < this.minNotionalRaw) return 'BELOW_MIN_NOTIONAL';
    return undefined;
  }

  /** The lot size in words: raw units and what they are in the token. */
  describeLot(): string {
    return `${this.spec.lotSize} base raw units (${this.formatBase(this.spec.lotSize)})`;
  }

  /** The minimum notional in words: raw units and what they are in the token. */
  describeMinNotional(): string {
    return `${this.minNotionalRaw} quote raw units (${this.formatQuote(this.minNotionalRaw)})`;
  }

  formatBase(baseRaw: bigint): string {
    return formatDecimal(baseRaw, this.spec.baseDecimals);
  }

  formatQuote(quoteRaw: bigint): string {
    return formatDecimal(quoteRaw, this.spec.quoteDecimals);
  }
}
