import type { OrderTerms } from '@dex/core';
import type { LiveOrder } from '../../domain/orders/live-orders.js';
import type { OrderIds } from '../../domain/orders/order-ids.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { NewOrderFields, OrderTurn } from '../../domain/orders/order-turn.js';
import type { Clock } from '../../ports/clock.js';
import type { Holding } from '../../ports/funds.js';
import type { DeskBooks } from './desk-books.js';
import type { CommandPosition, DeskSequencer } from './desk-sequencer.js';
import type { IntakeChecks, IntakeItem } from './intake-checks.js';

/** A verified order ready for the book; the desk assigns its id. */
export interface OrderCandidate extends IntakeItem {
  readonly fields: Omit<NewOrderFields, 'id' | 'createdAt' | 'ocoOrderId'>;
  readonly terms: OrderTerms;
  readonly makerOnly: boolean;
  readonly takerOnce: boolean;
  /** The signed order's swapper, lower-case. */
  readonly swapper: string;
  /** The signed output's raw amount: the least the order receives for all its input. */
  readonly outputAmount: bigint;
  /** Batch index of its OCO partner, or null. */
  readonly ocoWith: number | null;
}

/**
 * The desk's acceptance stage: in one turn, expires what is due, passes the intake checks, gives
 * each new order its id and places the batch on its books in batch order.
 */
export class OrderAcceptance {
  constructor(
    private readonly books: DeskBooks,
    private readonly checks: IntakeChecks,
    private readonly sequencer: DeskSequencer,
    private readonly clock: Clock,
    private readonly ids: OrderIds,
  ) {}

  /** Ids continue after the store's highest (after a rebuild from the store). */
  continueAfter(lastId: number): void {
    this.ids.continueAfter(lastId);
  }

  /**
   * Stores and places a batch of verified orders of one account, in batch order. Returns the
   * stored record of each candidate. Throws before anything changes when a nonce is no longer
   * available, the nonce floor moved above one, or the batch would pass the open-order cap. A batch
   * that came through a command log names its `position` (see {@link DeskSequencer.run}).
   */
  accept(
    account: string,
    candidates: readonly OrderCandidate[],
    holdings?: ReadonlyMap<string, Holding>,
    position?: CommandPosition,
  ): Promise<OrderRecord[]> {
    return this.sequencer.run(async () => {
      // An order past its deadline must not trade, even if the sweep has not reached it yet.
      this.expireDueNow();
      // A concurrent save of the same signed order may have won the race: answer its order.
      const saved = await this.checks.savedByHash(candidates.map((candidate) => candidate.fields.orderHash));
      const fresh = candidates.filter((candidate) => !saved.has(candidate.fields.orderHash));
      this.checks.assertOwnBooks(fresh);
      await this.checks.checkNonces(account, fresh);
      this.checks.assertRoomFor(account, fresh.length);
      if (holdings !== undefined) this.checks.assertCovered(account, fresh, holdings);

      const turn = this.books.turn(this.clock.now());
      const placed = this.create(turn, account, candidates, fresh);
      for (const { order, candidate } of placed) this.books.place(turn, order, candidate.terms);
      const write = this.sequencer.stage(turn);
      for (const { order } of placed) this.books.trackIfLive(order);
      const created = new Map(write.newOrders.map((record) => [record.orderHash, record]));
      return candidates.map((candidate) => {
        const record = created.get(candidate.fields.orderHash) ?? saved.get(candidate.fields.orderHash);
        if (record === undefined) throw new Error(`no order for hash ${candidate.fields.orderHash}`);
        return record;
      });
    }, position);
  }

  /** Expires every open order whose deadline has passed, in a turn of its own; returns how many. */
  expireDueNow(): number {
    const now = this.clock.now();
    const due = this.books.due(now);
    if (due.length === 0) return 0;
    const turn = this.books.turn(now);
    for (const order of due) if (this.books.live.get(order.id) !== undefined) this.books.remove(turn, order, 'EXPIRED');
    this.sequencer.stage(turn);
    return due.length;
  }

  /** Gives each fresh candidate its id and OCO partner and records it in the turn (CREATED). */
  private create(
    turn: OrderTurn,
    account: string,
    candidates: readonly OrderCandidate[],
    fresh: readonly OrderCandidate[],
  ): { order: LiveOrder; candidate: OrderCandidate }[] {
    const ids = new Map(fresh.map((candidate) => [candidate, this.ids.take()]));
    return fresh.map((candidate) => {
      const id = ids.get(candidate) as number;
      const partner = candidate.ocoWith === null ? undefined : candidates[candidate.ocoWith];
      const ocoOrderId = partner === undefined ? null : (ids.get(partner) ?? null);
      const fields: NewOrderFields = { ...candidate.fields, id, createdAt: turn.time, ocoOrderId };
      const order: LiveOrder = {
        id,
        account,
        bookId: fields.bookId,
        type: fields.type,
        side: candidate.terms.side,
        priceTicks: fields.priceTicks,
        quantitySteps: candidate.terms.kind === 'sized' ? candidate.terms.quantitySteps : 0,
        nonce: fields.nonce,
        deadlineMs: fields.deadline * 1000,
        swapper: candidate.swapper,
        makerOnly: candidate.makerOnly,
        takerOnce: candidate.takerOnce,
        inputToken: candidate.input.token,
        inputAmount: candidate.input.amount,
        outputAmount: candidate.outputAmount,
        ocoOrderId,
        useAmm: fields.useAmm,
        selfTradePrevention: fields.selfTradePrevention,
        status: 'OPEN',
        reason: null,
        filledSteps: 0,
        filledInput: 0n,
        filledOutput: 0n,
        updatedAt: turn.time,
      };
      turn.create(fields, order);
      return { order, candidate };
    });
  }
}
