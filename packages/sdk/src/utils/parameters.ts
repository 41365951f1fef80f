import { CoreError, parsePositiveRawAmount } from '@dex/core';
import { InvalidParameterError } from '../errors.js';

/** A raw token amount: a bigint, or a strict decimal integer string such as `"150000000"`. */
export type RawAmount = bigint | string;

/** An order book id as `GET /books` gives it, or as a string. */
export type OrderbookId = number | string;

/** Turns a CoreError from a parser into the SDK's own error; anything else passes through. */
export function asParameter<T>(parameter: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof CoreError) {
      throw new InvalidParameterError(parameter, error.shortMessage, { details: error.details, cause: error });
    }
    throw error;
  }
}

/**
 * The wire form of a raw amount that must be at least 1. Strings must already be strict: no sign,
 * exponent, spaces, `0x` or leading zeros; they are sent exactly as given.
 */
export function rawAmountParameter(value: RawAmount, parameter: string): string {
  const text = typeof value === 'bigint' ? value.toString() : value;
  asParameter(parameter, () => parsePositiveRawAmount(text, parameter));
  return text;
}

/**
 * The path segment of an order book id. A number must be a non-negative safe integer; a string is
 * sent as given (percent-encoded) and the server decides whether it names a book.
 */
export function orderbookIdParameter(value: OrderbookId): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new InvalidParameterError('orderbookId', 'orderbookId must be a non-negative integer', { details: `got ${value}` });
    }
    return String(value);
  }
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new InvalidParameterError('orderbookId', 'orderbookId must be a book id such as 1 or "1"');
  }
  return value;
}

/** `page` and `limit`: whole numbers from 1; the server would silently replace others by defaults. */
export function countParameter(value: number | undefined, parameter: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InvalidParameterError(parameter, `${parameter} must be a whole number from 1`, { details: `got ${value}` });
  }
  return value;
}
