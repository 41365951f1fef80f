import { type LiveOrder, liveOrder } from '../../domain/orders/live-orders.js';
import type { OrderIds } from '../../domain/orders/order-ids.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { NewOrderFields, OrderTurn } from '../../domain/orders/order-turn.js';
import type { OrderCandidate } from './order-desk.js';

/** A new order of the turn and the candidate it came from. */
export interface CreatedOrder {
  readonly order: LiveOrder;
  readonly candidate: OrderCandidate;
}

/**
 * The create stage of an order's turn: gives each fresh candidate its id and its OCO partner's id,
 * and records it in the turn (CREATED), open and unfilled.
 */
export function createOrders(
  turn: OrderTurn,
  ids: OrderIds,
  candidates: readonly OrderCandidate[],
  fresh: readonly OrderCandidate[],
): CreatedOrder[] {
  const idOf = new Map(fresh.map((candidate) => [candidate, ids.take()]));
  return fresh.map((candidate) => {
    const id = idOf.get(candidate) as number;
    const partner = candidate.ocoWith === null ? undefined : candidates[candidate.ocoWith];
    const ocoOrderId = partner === undefined ? null : (idOf.get(partner) ?? null);
    const fields: NewOrderFields = { ...candidate.fields, id, createdAt: turn.time, ocoOrderId };
    const quantitySteps = candidate.terms.kind === 'sized' ? candidate.terms.quantitySteps : 0;
    const order = liveOrder(
      {
        ...fields,
        quantitySteps,
        status: 'OPEN',
        reason: null,
        filledSteps: 0,
        filledInput: 0n,
        filledOutput: 0n,
        updatedAt: turn.time,
      },
      candidate.signed,
    );
    turn.create(fields, order);
    return { order, candidate };
  });
}

/** The answer of an order's turn: the record of each candidate in batch order, created now or saved before. */
export function recordsInBatchOrder(
  candidates: readonly OrderCandidate[],
  created: readonly OrderRecord[],
  saved: ReadonlyMap<string, OrderRecord>,
): OrderRecord[] {
  const byHash = new Map(created.map((record) => [record.orderHash, record]));
  return candidates.map((candidate) => {
    const record = byHash.get(candidate.fields.orderHash) ?? saved.get(candidate.fields.orderHash);
    if (record === undefined) throw new Error(`no order for hash ${candidate.fields.orderHash}`);
    return record;
  });
}
