import type { CancelReason } from '@dex/core';
import { AppError } from '../../domain/errors.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { CommandHandler, LoggedCommand } from '../../ports/command-log.js';
import type { Holding } from '../../ports/funds.js';
import type { Logger } from '../../ports/logger.js';
import type { FailedFill, PoolReservesListener, SettledSwap } from '../../ports/settlement-desk.js';
import type { CommandPosition } from '../desk/desk-sequencer.js';
import type { CancelOutcome, OrderCandidate } from '../desk/order-desk.js';
import { type DeskCommand, decodeDeskCommand, encodeDeskAnswer, refusalOf, type SettlementCommand } from './desk-commands.js';

/**
 * The desk's calls that take a command's position, so that its turn stores the position with its
 * effects; and the pools' reports, which run no turn (a repeat of one changes nothing).
 */
export interface PositionedDesk extends PoolReservesListener {
  accept(
    account: string,
    candidates: readonly OrderCandidate[],
    holdings: ReadonlyMap<string, Holding> | undefined,
    position: CommandPosition,
  ): Promise<OrderRecord[]>;
  cancel(account: string, orderIds: readonly number[], reason: CancelReason, position: CommandPosition): Promise<CancelOutcome>;
  cancelBelowFloor(account: string, floor: bigint, reason: CancelReason, position: CommandPosition): Promise<number[]>;
  cancelOpen(
    account: string,
    books: ReadonlySet<number> | null,
    reason: CancelReason,
    position: CommandPosition,
  ): Promise<number[]>;
  unwindFills(failures: readonly FailedFill[], position: CommandPosition): Promise<void>;
  finalizeCancels(position: CommandPosition): Promise<number>;
  cancelledOnChain(orderHash: string, txHash: string, position: CommandPosition): Promise<void>;
  floorRaisedOnChain(account: string, floor: bigint, txHash: string, position: CommandPosition): Promise<void>;
  poolSwapsSettled(swaps: readonly SettledSwap[]): void;
}

/** The settler's verdicts: every one but the pools' reports is a turn at the command's position. */
async function applySettlement(desk: PositionedDesk, command: SettlementCommand, position: CommandPosition): Promise<unknown> {
  switch (command.kind) {
    case 'unwindFills':
      return desk.unwindFills(command.failures, position);
    case 'finalizeCancels':
      return desk.finalizeCancels(position);
    case 'cancelledOnChain':
      return desk.cancelledOnChain(command.orderHash, command.txHash, position);
    case 'floorRaisedOnChain':
      return desk.floorRaisedOnChain(command.account, command.floor, command.txHash, position);
    case 'poolSwapsSettled':
      return desk.poolSwapsSettled(command.swaps);
    case 'poolReservesSynced':
      return desk.poolReservesSynced(command.pairs);
  }
}

function apply(desk: PositionedDesk, command: DeskCommand, position: CommandPosition): Promise<unknown> {
  switch (command.kind) {
    case 'save':
      return desk.accept(
        command.account,
        command.candidates,
        command.holdings === null ? undefined : new Map(command.holdings),
        position,
      );
    case 'cancel':
      return desk.cancel(command.account, command.orderIds, command.reason, position);
    case 'cancelBelowFloor':
      return desk.cancelBelowFloor(command.account, command.floor, command.reason, position);
    case 'cancelOpen':
      return desk.cancelOpen(command.account, command.books === null ? null : new Set(command.books), command.reason, position);
    default:
      return applySettlement(desk, command, position);
  }
}

/**
 * The engine's side of the command log: applies each command to the desk in log order, its
 * position stored in the turn's commit group, and answers once that group is stored. A refusal is
 * an answer like any other (the position is stored all the same, so the command is never applied
 * again); so is a command this version cannot read, which is logged.
 */
export function deskCommandHandler(desk: PositionedDesk, logger: Logger): CommandHandler {
  return async (logged: LoggedCommand) => {
    const position = { shard: logged.shard, seq: logged.seq };
    let command: DeskCommand;
    try {
      command = decodeDeskCommand(logged.body);
    } catch (error) {
      logger.error(
        { err: error, shard: logged.shard, seq: logged.seq.toString() },
        'a command could not be read; answered INTERNAL',
      );
      // Nothing is applied: a restarted engine answers it again, alike.
      return encodeDeskAnswer(refusalOf(error));
    }
    try {
      return encodeDeskAnswer({ ok: true, value: await apply(desk, command, position) });
    } catch (error) {
      // INTERNAL is a bug or a misconfiguration (ENGINE_SHARDS): an operator must hear of it.
      if (!(error instanceof AppError) || error.code === 'INTERNAL') {
        logger.error({ err: error, kind: command.kind }, 'a command failed; answered INTERNAL');
      }
      return encodeDeskAnswer(refusalOf(error));
    }
  };
}
