import { createHash } from 'node:crypto';
import type { CancelReason } from '@dex/core';
import { AppError, ERROR_CATALOGUE, type ErrorCode } from '../../domain/errors.js';
import { decodeTagged, encodeTagged } from '../../domain/wire/tagged-json.js';
import type { Holding } from '../../ports/funds.js';
import type { FailedFill, PairReserves, SettledSwap } from '../../ports/settlement-desk.js';
import { StoreUnavailableError } from '../../ports/store/ports.js';
import type { OrderCandidate } from '../desk/order-desk.js';

/**
 * The desk's work as data, for the command log between gateways and engines: each kind is one
 * call of the desk, with everything the gateway checked and verified already in it.
 */
export type DeskCommand =
  | {
      readonly kind: 'save';
      readonly account: string;
      readonly candidates: readonly OrderCandidate[];
      /** The account's holdings of the orders' input tokens, read by the gateway; null without a chain. */
      readonly holdings: readonly (readonly [string, Holding])[] | null;
    }
  | { readonly kind: 'cancel'; readonly account: string; readonly orderIds: readonly number[]; readonly reason: CancelReason }
  | { readonly kind: 'cancelBelowFloor'; readonly account: string; readonly floor: bigint; readonly reason: CancelReason }
  | {
      readonly kind: 'cancelOpen';
      readonly account: string;
      readonly books: readonly number[] | null;
      readonly reason: CancelReason;
    }
  | SettlementCommand;

/** The settler's verdicts for the engines (see the SettlementDesk port). */
export type SettlementCommand =
  | { readonly kind: 'unwindFills'; readonly failures: readonly FailedFill[] }
  | { readonly kind: 'finalizeCancels' }
  | { readonly kind: 'cancelledOnChain'; readonly orderHash: string; readonly txHash: string }
  | { readonly kind: 'floorRaisedOnChain'; readonly account: string; readonly floor: bigint; readonly txHash: string }
  | { readonly kind: 'poolSwapsSettled'; readonly swaps: readonly SettledSwap[] }
  | { readonly kind: 'poolReservesSynced'; readonly pairs: readonly PairReserves[] };

/** The engine's answer to a command: the desk's value, or the refusal it answered with. */
export type DeskAnswer =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: ErrorCode; readonly message: string; readonly index: number | null };

const KINDS = new Set<DeskCommand['kind']>([
  'save',
  'cancel',
  'cancelBelowFloor',
  'cancelOpen',
  'unwindFills',
  'finalizeCancels',
  'cancelledOnChain',
  'floorRaisedOnChain',
  'poolSwapsSettled',
  'poolReservesSynced',
]);

export function encodeDeskCommand(command: DeskCommand): Uint8Array {
  return encodeTagged(command);
}

/** The command the bytes hold; throws on anything this version did not write. */
export function decodeDeskCommand(bytes: Uint8Array): DeskCommand {
  const value = decodeTagged(bytes);
  if (typeof value !== 'object' || value === null || !KINDS.has((value as { kind: DeskCommand['kind'] }).kind)) {
    throw new Error('not a desk command');
  }
  return value as DeskCommand;
}

/**
 * The id the command is appended under: a digest of what it asks and of the request it came
 * from. A publish the gateway retries within one request is therefore appended once; a client's
 * retry is a new command, answered by the desk as a repeat (orders by their hashes, cancels as
 * already done).
 */
export function deskCommandId(command: DeskCommand, requestId: string): string {
  const digest = createHash('sha256').update(requestId).update('\0');
  if (command.kind === 'save') {
    digest.update(`save\0${command.account}`);
    for (const candidate of command.candidates) digest.update(`\0${candidate.fields.orderHash}`);
  } else {
    digest.update(encodeDeskCommand(command));
  }
  return digest.digest('base64url');
}

export function encodeDeskAnswer(answer: DeskAnswer): Uint8Array {
  return encodeTagged(answer);
}

/** The value of an answer; a refusal is thrown again as the AppError the engine answered with. */
export function answeredValue(bytes: Uint8Array): unknown {
  const answer = decodeTagged(bytes) as DeskAnswer;
  if (answer.ok) return answer.value;
  const code = answer.code in ERROR_CATALOGUE ? answer.code : 'INTERNAL';
  throw new AppError(code, answer.message, answer.index === null ? {} : { index: answer.index });
}

/** What an engine answers when it could not store a command: it stays in the log, so it is not refused. */
export const NOT_STORED_MESSAGE =
  'The order book engine could not store the request; it may still be applied: send the same request again';

/** Failures of the engine's store: the command may be applied when the engine follows its log again. */
function notStored(error: unknown): boolean {
  return (
    error instanceof StoreUnavailableError ||
    (error instanceof AppError && (error.code === 'TRADING_UNAVAILABLE' || error.code === 'STORAGE_UNAVAILABLE'))
  );
}

/**
 * A failure as an answer: an AppError as it is, anything else as INTERNAL (as the HTTP edge
 * answers it), except a failure to store. That one is ENGINE_UNAVAILABLE, which promises nothing:
 * the command stays in the log, and an engine that restarts from its stored position applies it.
 */
export function refusalOf(error: unknown): DeskAnswer {
  if (notStored(error)) return { ok: false, code: 'ENGINE_UNAVAILABLE', message: NOT_STORED_MESSAGE, index: null };
  if (!(error instanceof AppError))
    return { ok: false, code: 'INTERNAL', message: ERROR_CATALOGUE.INTERNAL.message, index: null };
  return { ok: false, code: error.code, message: error.message, index: error.index ?? null };
}
