import { CoreError, isEvmAddress, isLedgerId, parsePositiveRawAmount } from '@dex/core';
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

/** An account as the API names it: a ledger id `0.0.X`, or a `0x` address (sent in lower case). */
export function accountIdParameter(value: string): string {
  if (isLedgerId(value)) return value;
  if (isEvmAddress(value)) return value.toLowerCase();
  throw new InvalidParameterError('accountId', 'accountId must be a ledger id (0.0.X) or a 0x address', {
    details: `got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 50)) : typeof value}`,
  });
}

/** A batch of 1 to `max` items. */
export function batchParameter<T>(items: readonly T[], parameter: string, max: number): readonly T[] {
  if (!Array.isArray(items) || items.length < 1 || items.length > max) {
    throw new InvalidParameterError(parameter, `${parameter} must hold 1 to ${max} items`, {
      details: Array.isArray(items) ? `got ${items.length}` : 'not an array',
    });
  }
  return items;
}

/** An id (order, pool): a positive safe integer, or its decimal string. */
export function idParameter(value: number | string, parameter: string): number {
  const id = typeof value === 'string' && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw new InvalidParameterError(parameter, `${parameter} must be a positive integer`, { details: `got ${String(value)}` });
  }
  return id;
}

/** A ledger id `0.0.X`. */
export function ledgerIdParameter(value: string, parameter: string): string {
  if (isLedgerId(value)) return value;
  throw new InvalidParameterError(parameter, `${parameter} must be a ledger id such as 0.0.1234`, {
    details: `got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 50)) : typeof value}`,
  });
}

/** Unix seconds: a non-negative safe integer. */
export function unixSecondsParameter(value: number, parameter: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidParameterError(parameter, `${parameter} must be unix seconds`, { details: `got ${value}` });
  }
  return value;
}

/** Order book ids to follow: at least one, each as {@link orderbookIdParameter} takes it; numeric and without repeats. */
export function orderbookIdsParameter(values: readonly OrderbookId[], parameter: string): number[] {
  if (!Array.isArray(values) || values.length === 0) {
    throw new InvalidParameterError(parameter, `${parameter} must name at least one order book`);
  }
  const ids = values.map((value) => Number(orderbookIdParameter(value)));
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 0)) {
    throw new InvalidParameterError(parameter, `${parameter} must be order book ids such as 1 or "1"`, {
      details: `got ${JSON.stringify(values).slice(0, 80)}`,
    });
  }
  return [...new Set(ids)];
}

/** One of a fixed set of words (a period, an interval) that goes into a path. */
export function oneOfParameter<T extends string>(value: T, allowed: readonly T[], parameter: string): T {
  if (allowed.includes(value)) return value;
  throw new InvalidParameterError(parameter, `${parameter} must be one of ${allowed.join(', ')}`, {
    details: `got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 50)) : typeof value}`,
  });
}

/**
 * A boolean query flag as `true`/`false`, or undefined (left out, the server's default) when not
 * given. Anything else would be read by the server in its own way: refused here.
 */
export function flagParameter(value: boolean | undefined, parameter: string): 'true' | 'false' | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') {
    throw new InvalidParameterError(parameter, `${parameter} must be true or false`, { details: `got ${typeof value}` });
  }
  return value ? 'true' : 'false';
}
