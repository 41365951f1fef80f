import { BUY, SELL, type SelfTradePrevention, type Side } from '@dex/core';
import type { OrderProgress, OrderRecord, OrderType } from './order-records.js';
import { decodeSignedOrder } from './stored-signed-order.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What the user stream tells of an order besides its progress: its signed terms on the book. */
export interface OrderFacts {
  /** The signed order's swapper, a lower-case 0x address. */
  readonly swapper: string;
  readonly type: OrderType;
  readonly side: Side;
  readonly priceTicks: bigint;
  readonly quantitySteps: number;
  /** Unix ms. */
  readonly deadlineMs: number;
  readonly makerOnly: boolean;
  readonly takerOnce: boolean;
}

/** An order that can still trade, as the desk tracks it between engine turns; turns update it in place. */
export interface LiveOrder extends Mutable<OrderProgress>, OrderFacts, SignedFacts {
  readonly id: number;
  readonly account: string;
  readonly bookId: number;
  /** Fixed at acceptance, except for a market buy, whose size is found when it is placed. */
  quantitySteps: number;
  readonly nonce: bigint;
  readonly ocoOrderId: number | null;
  /** Whether it takes from the book's pool as well, where the pool beats the book. */
  readonly useAmm: boolean;
  /** What matching does when it meets a resting order of the same account. */
  readonly selfTradePrevention: SelfTradePrevention;
}

/**
 * What the desk reads of a signed order besides its record's columns, decoded once: at intake for
 * a new order, from the stored text for a stored one.
 */
export interface SignedFacts {
  /** The signed order's swapper, a lower-case 0x address. */
  readonly swapper: string;
  readonly makerOnly: boolean;
  readonly takerOnce: boolean;
  /** Lower-case token address. */
  readonly inputToken: string;
  readonly inputAmount: bigint;
  readonly outputAmount: bigint;
}

/** The signed facts of a stored order (`OrderRecord.signedOrder`). */
export function signedFactsOf(signedOrder: string): SignedFacts {
  const { info, input, output, makerOnly, takerOnce } = decodeSignedOrder(signedOrder);
  return {
    swapper: info.swapper.toLowerCase(),
    makerOnly,
    takerOnce,
    inputToken: input.token.toLowerCase(),
    inputAmount: input.amount,
    outputAmount: output.amount,
  };
}

/** The one constructor of a live order: an order's record and its signed facts. */
export function liveOrder(
  record: Omit<OrderRecord, 'orderHash' | 'signedOrder' | 'signature' | 'createdAt'>,
  facts: SignedFacts,
): LiveOrder {
  return {
    ...facts,
    id: record.id,
    account: record.account,
    bookId: record.bookId,
    type: record.type,
    side: record.side === 'buy' ? BUY : SELL,
    priceTicks: record.priceTicks,
    quantitySteps: record.quantitySteps,
    nonce: record.nonce,
    deadlineMs: record.deadline * 1000,
    ocoOrderId: record.ocoOrderId,
    useAmm: record.useAmm,
    selfTradePrevention: record.selfTradePrevention,
    status: record.status,
    reason: record.reason,
    filledSteps: record.filledSteps,
    filledInput: record.filledInput,
    filledOutput: record.filledOutput,
    updatedAt: record.updatedAt,
  };
}

/** The live order of a stored record. */
export function liveOrderOf(record: OrderRecord): LiveOrder {
  return liveOrder(record, signedFactsOf(record.signedOrder));
}

/** Open orders by id and by account: the cap per wallet, cancel-all and ownership checks read it. */
export class LiveOrders {
  private readonly byId = new Map<number, LiveOrder>();
  private readonly byAccount = new Map<string, Set<number>>();

  get(id: number): LiveOrder | undefined {
    return this.byId.get(id);
  }

  set(order: LiveOrder): void {
    this.byId.set(order.id, order);
    let ids = this.byAccount.get(order.account);
    if (ids === undefined) {
      ids = new Set();
      this.byAccount.set(order.account, ids);
    }
    ids.add(order.id);
  }

  clear(): void {
    this.byId.clear();
    this.byAccount.clear();
  }

  delete(id: number): void {
    const order = this.byId.get(id);
    if (order === undefined) return;
    this.byId.delete(id);
    const ids = this.byAccount.get(order.account);
    ids?.delete(id);
    if (ids?.size === 0) this.byAccount.delete(order.account);
  }

  countOf(account: string): number {
    return this.byAccount.get(account)?.size ?? 0;
  }

  ofAccount(account: string): LiveOrder[] {
    return [...(this.byAccount.get(account) ?? [])].flatMap((id) => this.byId.get(id) ?? []);
  }
}
