import type { CancelReason } from '@dex/core';
import { shardOf } from '../../domain/markets/engine-shards.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { Holding } from '../../ports/funds.js';
import type { OrderStore } from '../../ports/store/order-ports.js';
import type { CancelOutcome, OrderCandidate, OrderDesk } from '../desk/order-desk.js';
import type { DeskCommand } from './desk-commands.js';
import { ShardCommands } from './shard-commands.js';

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
    private readonly commands: ShardCommands,
    private readonly orders: Pick<OrderStore, 'booksOf'>,
  ) {}

  async accept(
    account: string,
    candidates: readonly OrderCandidate[],
    holdings?: ReadonlyMap<string, Holding>,
  ): Promise<OrderRecord[]> {
    const members = candidates.map((_, member) => member);
    const parts = ShardCommands.grouped(members, (member) => this.shardOf((candidates[member] as OrderCandidate).fields.bookId));
    const held = holdings === undefined ? null : [...holdings];
    const answers = await Promise.all(
      [...parts].map(async ([shard, members]) => {
        const part = partOf(candidates, members);
        return (await this.commands.send(shard, { kind: 'save', account, candidates: part, holdings: held })) as OrderRecord[];
      }),
    );
    const byHash = new Map(answers.flat().map((record) => [record.orderHash, record]));
    return candidates.map((candidate) => byHash.get(candidate.fields.orderHash) as OrderRecord);
  }

  /** Each id goes to the shard of its order's book; ids of no stored order to the first shard, which reports them NOT_FOUND. */
  async cancel(account: string, orderIds: readonly number[], reason: CancelReason = 'USER'): Promise<CancelOutcome> {
    const unique = [...new Set(orderIds)];
    const bookOf = await this.orders.booksOf(unique);
    const parts = ShardCommands.grouped(unique, (id) => this.shardOf(bookOf.get(id) ?? 0));
    const outcomes = (await Promise.all(
      [...parts].map(([shard, ids]) => this.commands.send(shard, { kind: 'cancel', account, orderIds: ids, reason })),
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
    const parts = ShardCommands.grouped(books, (book) => this.shardOf(book));
    const ids = await Promise.all(
      [...parts].map(([shard, part]) => this.commands.send(shard, { kind: 'cancelOpen', account, books: part, reason })),
    );
    return (ids as number[][]).flat().sort((a, b) => a - b);
  }

  /** The engines check the cap inside their turns: a gateway does not hold the books to check it earlier. */
  assertRoomFor(): void {}

  private async onEveryShard(command: DeskCommand): Promise<number[]> {
    const ids = (await this.commands.everyShard(command)) as number[][];
    return ids.flat().sort((a, b) => a - b);
  }

  private shardOf(bookId: number): number {
    return shardOf(bookId, this.commands.shards);
  }
}
