import type { OrderRecord, TurnWrite } from '../../store/order-ports.js';

/**
 * Turns that ran but whose writes are not stored yet: a commit group. The desk stores a group in
 * one transaction (one fsync for several requests) and answers its requests only after that.
 * Until then the next turns of the group must still see what earlier ones did, so this also
 * answers for the pending writes the questions turns ask the store: which orders exist (by hash
 * and id), which nonces are used, what the nonce floors are.
 */
export class PendingWrites {
  readonly writes: TurnWrite[] = [];
  /** Resolves when the group is stored; rejects when it cannot be. */
  readonly stored: Promise<void>;
  private readonly byHash = new Map<string, OrderRecord>();
  private readonly byId = new Map<number, OrderRecord>();
  private readonly usedNonces = new Map<string, Set<bigint>>();
  private readonly floors = new Map<string, bigint>();
  private orderCount = 0;
  private settle: { resolve: () => void; reject: (error: unknown) => void } = { resolve: () => {}, reject: () => {} };

  constructor() {
    this.stored = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Nobody may be waiting when a group fails (a turn that threw); never leave that unhandled.
    this.stored.catch(() => {});
  }

  add(write: TurnWrite): void {
    this.writes.push(write);
    this.orderCount += write.newOrders.length;
    for (const order of write.newOrders) {
      this.byHash.set(order.orderHash, order);
      this.byId.set(order.id, order);
      let nonces = this.usedNonces.get(order.account);
      if (nonces === undefined) {
        nonces = new Set();
        this.usedNonces.set(order.account, nonces);
      }
      nonces.add(order.nonce);
    }
    for (const [id, progress] of write.progress) {
      const order = this.byId.get(id);
      if (order === undefined) continue;
      const updated = { ...order, ...progress };
      this.byId.set(id, updated);
      this.byHash.set(order.orderHash, updated);
    }
    for (const [account, floor] of write.nonceFloors)
      if (floor > (this.floors.get(account) ?? 0n)) this.floors.set(account, floor);
  }

  /** Orders the group created, as of its latest turn. */
  order(id: number): OrderRecord | undefined {
    return this.byId.get(id);
  }

  orderByHash(hash: string): OrderRecord | undefined {
    return this.byHash.get(hash);
  }

  isNonceUsed(account: string, nonce: bigint): boolean {
    return this.usedNonces.get(account)?.has(nonce) ?? false;
  }

  floor(account: string): bigint {
    return this.floors.get(account) ?? 0n;
  }

  /** New orders in the group: bounds how much one commit carries. */
  get size(): number {
    return this.orderCount;
  }

  resolve(): void {
    this.settle.resolve();
  }

  reject(error: unknown): void {
    this.settle.reject(error);
  }
}
