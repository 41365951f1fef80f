import { randomUUID } from 'node:crypto';
import type { CancelReason } from '@dex/core';
import { AppError } from '../../domain/errors.js';
import { shardOf } from '../../domain/markets/engine-shards.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { CommandSender } from '../../ports/command-log.js';
import type { Holding } from '../../ports/funds.js';
import type { OrderStore } from '../../ports/store/order-ports.js';
import type { CancelOutcome } from '../orders/cancellation-relay.js';
import type { OrderCandidate } from '../orders/order-acceptance.js';
import type { OrderDesk } from '../orders/order-desk.js';
import { answeredValue, type DeskCommand, deskCommandId, encodeDeskCommand } from './desk-commands.js';

export interface CommandLogDeskOptions {
  /** How many engines share the books (see `shardOf`). */
  readonly shards: number;
  /** How long a call waits for its engine's answer before it answers ENGINE_UNAVAILABLE. */
  readonly timeoutMs: number;
}

/** The candidates of one shard, their OCO partners re-indexed within the part. */
function partOf(candidates: readonly OrderCandidate[], members: readonly number[]): OrderCandidate[] {
  const at = new Map(members.map((member, position) => [member, position]));
  return members.map((member) => {
    const candidate = candidates[member] as OrderCandidate;
    return { ...candidate, ocoWith: candidate.ocoWith === null ? null : (at.get(candidate.ocoWith) ?? null) };
  });
}

/**
 * The desk of a gateway (ROLE=gateway): every call is a command on the log of the shard that owns
 * the books it touches, answered by that shard's engine after its commit. A batch whose orders lie
 * on books of several shards is one command per shard, sent together: each shard's part is all or
 * nothing, but one part may be stored while another is refused (the refusal is the answer, and a
 * retry of the batch is answered from the stored orders by their hashes).
 */
export class CommandLogDesk implements OrderDesk {
  constructor(
    private readonly sender: CommandSender,
    private readonly orders: Pick<OrderStore, 'get'>,
    private readonly options: CommandLogDeskOptions,
  ) {}

  async accept(
    account: string,
    candidates: readonly OrderCandidate[],
    holdings?: ReadonlyMap<string, Holding>,
  ): Promise<OrderRecord[]> {
    const parts = new Map<number, number[]>();
    candidates.forEach((candidate, member) => {
      const shard = shardOf(candidate.fields.bookId, this.options.shards);
      parts.set(shard, [...(parts.get(shard) ?? []), member]);
    });
    const held = holdings === undefined ? null : [...holdings];
    const answers = await Promise.all(
      [...parts].map(async ([shard, members]) => {
        const part = partOf(candidates, members);
        const records = (await this.call(shard, { kind: 'save', account, candidates: part, holdings: held })) as OrderRecord[];
        return records;
      }),
    );
    const byHash = new Map(answers.flat().map((record) => [record.orderHash, record]));
    return candidates.map((candidate) => byHash.get(candidate.fields.orderHash) as OrderRecord);
  }

  /** Each id goes to the shard of its order's book; ids of no stored order to the first shard, which reports them NOT_FOUND. */
  async cancel(account: string, orderIds: readonly number[], reason: CancelReason = 'USER'): Promise<CancelOutcome> {
    const unique = [...new Set(orderIds)];
    const books = await Promise.all(unique.map(async (id) => (await this.orders.get(id))?.bookId ?? 0));
    const parts = new Map<number, number[]>();
    unique.forEach((id, position) => {
      const shard = shardOf(books[position] as number, this.options.shards);
      parts.set(shard, [...(parts.get(shard) ?? []), id]);
    });
    const outcomes = (await Promise.all(
      [...parts].map(([shard, ids]) => this.call(shard, { kind: 'cancel', account, orderIds: ids, reason })),
    )) as CancelOutcome[];
    // In the order the ids were asked for, as one desk answers.
    const rank = new Map(unique.map((id, position) => [id, position]));
    const byRank = (a: number, b: number) => (rank.get(a) as number) - (rank.get(b) as number);
    return {
      accepted: outcomes.flatMap((outcome) => outcome.accepted).sort(byRank),
      skipped: outcomes.flatMap((outcome) => outcome.skipped).sort((a, b) => byRank(a.orderId, b.orderId)),
    };
  }

  /** Every shard raises the floor (to the same value) and cancels its own books' orders below it. */
  async cancelBelowFloor(account: string, floor: bigint, reason: CancelReason = 'NONCE_FLOOR'): Promise<number[]> {
    return this.onEveryShard({ kind: 'cancelBelowFloor', account, floor, reason });
  }

  async cancelOpen(account: string, books: ReadonlySet<number> | null, reason: CancelReason): Promise<number[]> {
    if (books === null) return this.onEveryShard({ kind: 'cancelOpen', account, books: null, reason });
    const parts = new Map<number, number[]>();
    for (const book of books) {
      const shard = shardOf(book, this.options.shards);
      parts.set(shard, [...(parts.get(shard) ?? []), book]);
    }
    const ids = await Promise.all(
      [...parts].map(([shard, part]) => this.call(shard, { kind: 'cancelOpen', account, books: part, reason })),
    );
    return (ids as number[][]).flat().sort((a, b) => a - b);
  }

  /** The engines check the cap inside their turns: a gateway does not hold the books to check it earlier. */
  assertRoomFor(): void {}

  private async onEveryShard(command: DeskCommand): Promise<number[]> {
    const shards = Array.from({ length: this.options.shards }, (_, shard) => shard);
    const ids = await Promise.all(shards.map((shard) => this.call(shard, command)));
    return (ids as number[][]).flat().sort((a, b) => a - b);
  }

  private async call(shard: number, command: DeskCommand): Promise<unknown> {
    const id = deskCommandId(command, randomUUID());
    const outcome = await this.sender.send({ shard, id, body: encodeDeskCommand(command) }, this.options.timeoutMs);
    if (outcome.ok) return answeredValue(outcome.answer);
    const hashes = command.kind === 'save' ? command.candidates.map((candidate) => candidate.fields.orderHash) : [];
    const message =
      hashes.length === 0
        ? undefined
        : `The engine did not answer in time; the orders (${hashes.join(', ')}) may be saved; send them again to learn how they stand`;
    throw new AppError('ENGINE_UNAVAILABLE', message, { cause: outcome.error });
  }
}
