import { type CancelAfterResult, MAX_CANCEL_AFTER_SECONDS } from '@dex/protocol';
import { type AccountRequestErrorType, type Client, request } from '../client.js';
import { InvalidParameterError } from '../errors.js';

export { MAX_CANCEL_AFTER_SECONDS } from '@dex/protocol';

export interface CancelAfterParameters {
  /** Seconds from now after which every open order of the account is cancelled, 0 to 86400; 0 disarms the switch. */
  readonly timeoutSeconds: number;
}

/** The switch as the server armed it (the shape of Kraken's cancelAllOrdersAfter). */
export type CancelAfterReturnType = CancelAfterResult;

export type CancelAfterErrorType = InvalidParameterError | AccountRequestErrorType;

/**
 * Arms the account's dead-man switch (`POST /cancel/after`), replacing the last one: unless it is
 * called again first, every open order of the account is cancelled `timeoutSeconds` from now
 * (reason `CANCEL_AFTER`), and orders built but not saved by then can no longer be saved. Call it
 * every few seconds with a longer timeout while the bot is healthy; `0` disarms it.
 *
 * @example
 * const keepAlive = setInterval(() => cancelAfter(client, { timeoutSeconds: 60 }).catch(console.warn), 10_000);
 */
export async function cancelAfter(client: Client, parameters: CancelAfterParameters): Promise<CancelAfterReturnType> {
  const { timeoutSeconds } = parameters;
  if (!Number.isSafeInteger(timeoutSeconds) || timeoutSeconds < 0 || timeoutSeconds > MAX_CANCEL_AFTER_SECONDS) {
    throw new InvalidParameterError(
      'timeoutSeconds',
      `timeoutSeconds must be a whole number from 0 to ${MAX_CANCEL_AFTER_SECONDS}`,
      { details: `got ${String(timeoutSeconds)}` },
    );
  }
  return request<CancelAfterReturnType>(client, {
    method: 'POST',
    path: ['cancel', 'after'],
    body: { timeoutSeconds },
    access: 'account',
  });
}
