import { shardOf } from '../../domain/markets/engine-shards.js';
import type { Logger } from '../../ports/logger.js';
import type { FailedFill, PairReserves, PoolReservesListener, SettledSwap, SettlementDesk } from '../../ports/settlement-desk.js';
import { ShardCommands } from './shard-commands.js';

/**
 * The settler's desk in a cluster: the reactor's verdicts go to the engines over their command
 * logs. A failed fill goes to the engine of its book; what the settler cannot place on a book
 * (a cancellation or a floor raised on the reactor, confirmed cancellations, pool reserves and
 * settled swaps) goes to every engine, and each applies what concerns its own books.
 */
export class CommandLogSettlementDesk implements SettlementDesk, PoolReservesListener {
  constructor(
    private readonly commands: ShardCommands,
    private readonly logger: Logger,
  ) {}

  async unwindFills(failures: readonly FailedFill[]): Promise<void> {
    const groups = ShardCommands.grouped(failures, (failure) => shardOf(failure.bookId, this.commands.shards));
    await Promise.all([...groups].map(([shard, part]) => this.commands.send(shard, { kind: 'unwindFills', failures: part })));
  }

  async finalizeCancels(): Promise<number> {
    const counts = (await this.commands.everyShard({ kind: 'finalizeCancels' })) as number[];
    return counts.reduce((sum, count) => sum + count, 0);
  }

  async cancelledOnChain(orderHash: string, txHash: string): Promise<void> {
    await this.commands.everyShard({ kind: 'cancelledOnChain', orderHash, txHash });
  }

  async floorRaisedOnChain(account: string, floor: bigint, txHash: string): Promise<void> {
    await this.commands.everyShard({ kind: 'floorRaisedOnChain', account, floor, txHash });
  }

  /** Told, not asked: a lost one is logged, and the next report brings the engines up to date. */
  poolSwapsSettled(swaps: readonly SettledSwap[]): void {
    this.commands
      .everyShard({ kind: 'poolSwapsSettled', swaps })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'the engines could not be told of settled pool swaps'));
  }

  poolReservesSynced(pairs: readonly PairReserves[]): void {
    this.commands
      .everyShard({ kind: 'poolReservesSynced', pairs })
      .catch((error: unknown) => this.logger.warn({ err: error }, "the engines could not be told the pools' reserves"));
  }
}
