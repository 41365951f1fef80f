import { randomUUID } from 'node:crypto';
import { AppError } from '../../domain/errors.js';
import type { CommandSender } from '../../ports/command-log.js';
import { answeredValue, type DeskCommand, deskCommandId, encodeDeskCommand } from './desk-commands.js';

/**
 * Sends desk commands to the engines of the shards over their command logs and brings back each
 * engine's answer: what a gateway's desk and a settler's desk share.
 */
export class ShardCommands {
  constructor(
    private readonly sender: CommandSender,
    /** How many engines share the books. */
    readonly shards: number,
    /** How long a command waits for its engine's answer before ENGINE_UNAVAILABLE. */
    private readonly timeoutMs: number,
  ) {}

  /** The engine's answer to the command on `shard`'s log; its refusal is thrown as the AppError it was. */
  async send(shard: number, command: DeskCommand): Promise<unknown> {
    const id = deskCommandId(command, randomUUID());
    const outcome = await this.sender.send({ shard, id, body: encodeDeskCommand(command) }, this.timeoutMs);
    if (outcome.ok) return answeredValue(outcome.answer);
    const hashes = command.kind === 'save' ? command.candidates.map((candidate) => candidate.fields.orderHash) : [];
    const message =
      hashes.length === 0
        ? undefined
        : `The engine did not answer in time; the orders (${hashes.join(', ')}) may be saved; send them again to learn how they stand`;
    throw new AppError('ENGINE_UNAVAILABLE', message, { cause: outcome.error });
  }

  /** The command on every shard's log, together; the answers in shard order. */
  everyShard(command: DeskCommand): Promise<unknown[]> {
    return Promise.all(Array.from({ length: this.shards }, (_, shard) => this.send(shard, command)));
  }

  /** Items grouped by the shard `shardOf` names, in their order within each group. */
  static grouped<T>(items: Iterable<T>, shardOf: (item: T) => number): Map<number, T[]> {
    const groups = new Map<number, T[]>();
    for (const item of items) {
      const shard = shardOf(item);
      const group = groups.get(shard);
      if (group === undefined) groups.set(shard, [item]);
      else group.push(item);
    }
    return groups;
  }
}
