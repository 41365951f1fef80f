import { formatDecimal, fromDisplayAmount, MAX_TOKEN_DECIMALS } from '@dex/core';
import { StreamError } from '../errors.js';

/**
 * A display decimal of the stream (price, size, filled amount) as an integer count of 10^-36: two
 * spellings of one number get one key, and keys compare and add exactly. A value that is not a
 * plain decimal is a malformed message.
 */
export function decimalKey(text: string, what: string): bigint {
  try {
    return fromDisplayAmount(text, MAX_TOKEN_DECIMALS, what);
  } catch (cause) {
    throw new StreamError('malformed', `The stream sent a ${what} that is not a decimal`, {
      details: JSON.stringify(String(text).slice(0, 40)),
      cause,
    });
  }
}

/** The display decimal of a key. */
export function decimalOfKey(key: bigint): string {
  return formatDecimal(key, MAX_TOKEN_DECIMALS);
}
