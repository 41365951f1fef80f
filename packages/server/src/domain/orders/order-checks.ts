import {
  CoreError,
  type OrderAmounts,
  type OrderKind,
  type OrderTerms,
  orderTerms,
  parseRawAmount,
  type TermsViolation,
} from '@dex/core';
import { AppError, type ErrorCode } from '../errors.js';
import { isNativeCoin, type Market, type MarketLookup, NATIVE_COIN_ADDRESS } from '../markets/market.js';

/** Shortest time to deadline an order may be saved with (spec 8.2). */
export const MIN_DEADLINE_SECONDS = 30;
/** Longest time to deadline (spec 8.2). */
export const MAX_DEADLINE_SECONDS = 90 * 24 * 60 * 60;
/**
 * How far past the longest deadline a save may be: `/orders/build` gives a limit order without a
 * deadline the longest one, so a service clock stepped back between build and save (an NTP
 * correction) must not make the order it built "too far".
 */
export const DEADLINE_CLOCK_STEP_SECONDS = 300;

const VIOLATION_CODES: Record<TermsViolation, ErrorCode> = {
  TOKENS_NOT_IN_BOOK: 'TOKEN_NOT_IN_BOOK',
  ZERO_AMOUNT: 'INVALID_AMOUNT',
  OFF_GRID: 'ORDER_OFF_GRID',
  BELOW_LOT_SIZE: 'ORDER_TOO_SMALL',
  BELOW_MIN_NOTIONAL: 'ORDER_TOO_SMALL',
  PRICE_OUT_OF_RANGE: 'ORDER_PRICE_OUT_OF_RANGE',
};

/** Checks on one item of a batch; every error names the item. */
export class ItemChecks {
  constructor(
    readonly field: string,
    readonly index: number,
  ) {}

  fail(code: ErrorCode, message?: string): AppError {
    return AppError.atItem(this.index, this.field, code, message);
  }

  /** A raw token amount (strict integer string, at most uint256). */
  amount(text: string, name: string): bigint {
    try {
      return parseRawAmount(text, name);
    } catch (error) {
      if (error instanceof CoreError) throw this.fail('INVALID_AMOUNT', error.shortMessage);
      throw error;
    }
  }

  /** The open, trading market of an `orderbookId` given as a number or a numeric string. */
  market(registry: MarketLookup, orderbookId: number | string): Market {
    const market = registry.find(orderbookId);
    if (market === undefined) throw this.fail('UNKNOWN_ORDERBOOK', `unknown order book ${String(orderbookId).slice(0, 20)}`);
    if (market.book.status === 'CLOSED') throw this.fail('MARKET_CLOSED');
    if (market.book.isHalted) throw this.fail('MARKET_HALTED');
    return market;
  }

  /**
   * A token as a build request names it, as the order will carry it: the native coin, named by its
   * zero address as `GET /books` lists it, is signed as the chain's wrapped native token.
   */
  signedToken(market: Market, token: string): string {
    const lower = token.toLowerCase();
    const wrapped = wrappedNativeOf(market);
    return lower === NATIVE_COIN_ADDRESS && wrapped !== null ? wrapped : lower;
  }

  /** Side, price and size of the order on the market's grid, its tokens as they settle. */
  terms(amounts: OrderAmounts, market: Market, kind: OrderKind): OrderTerms {
    const wrapped = wrappedNativeOf(market);
    if (wrapped === NATIVE_COIN_ADDRESS) {
      throw this.fail(
        'TOKEN_NOT_IN_BOOK',
        `order book ${market.book.id} trades the native coin, and this chain names no wrapped token to settle it in`,
      );
    }
    if (
      wrapped !== null &&
      [amounts.inputToken, amounts.outputToken].some((token) => token.toLowerCase() === NATIVE_COIN_ADDRESS)
    ) {
      throw this.fail(
        'TOKEN_NOT_IN_BOOK',
        `orders of book ${market.book.id} carry the native coin as the wrapped token ${wrapped}, never the zero address`,
      );
    }
    const result = orderTerms(amounts, market.settlement, market.grid, kind);
    if (!result.ok) throw this.fail(VIOLATION_CODES[result.violation], result.message);
    return result.terms;
  }

  /**
   * The deadline (unix s) lies in [now + 30 s, now + 90 d], with {@link DEADLINE_CLOCK_STEP_SECONDS}
   * beyond. One that has passed keeps the code ORDER_DEADLINE_TOO_SOON (clients branch on it: build
   * the order again) and says that it has passed, and by how much, rather than ask for 30 seconds.
   */
  deadline(deadline: bigint, nowMs: number): void {
    const now = BigInt(Math.floor(nowMs / 1000));
    if (deadline < now) {
      throw this.fail(
        'ORDER_DEADLINE_TOO_SOON',
        `The order deadline has passed: ${deadline} is ${now - deadline} s before now (${now}); build the order again`,
      );
    }
    if (deadline < now + BigInt(MIN_DEADLINE_SECONDS)) {
      throw this.fail(
        'ORDER_DEADLINE_TOO_SOON',
        `The order deadline ${deadline} is ${deadline - now} s from now (${now}); it must be at least ${MIN_DEADLINE_SECONDS} seconds from now`,
      );
    }
    if (deadline > now + BigInt(MAX_DEADLINE_SECONDS + DEADLINE_CLOCK_STEP_SECONDS)) throw this.fail('ORDER_DEADLINE_TOO_FAR');
  }
}

/** The token a market's native-coin side settles in (the zero address while the chain names none); null: it has no such side. */
function wrappedNativeOf(market: Market): string | null {
  if (isNativeCoin(market.base)) return market.settlement.base;
  return isNativeCoin(market.quote) ? market.settlement.quote : null;
}
