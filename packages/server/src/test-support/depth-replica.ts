import { fromDisplayAmount, MAX_TOKEN_DECIMALS } from '@dex/core';
import type { DepthDiffMessage } from '../ws/protocol.js';

type Level = [price: string, size: string];

/** What the replica needs of `GET /depth/:orderbookId`. */
export interface DepthSnapshot {
  readonly lastUpdateId: number;
  readonly bids: readonly (readonly [string, string])[];
  readonly asks: readonly (readonly [string, string])[];
}

export interface DepthView {
  readonly lastUpdateId: number;
  readonly bids: Level[];
  readonly asks: Level[];
}

function ordered(levels: Map<string, string>, descending: boolean): Level[] {
  const key = (price: string) => fromDisplayAmount(price, MAX_TOKEN_DECIMALS);
  return [...levels].sort(([a], [b]) => {
    const order = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
    return descending ? -order : order;
  });
}

/**
 * A local copy of one book kept by the spec's reliable-depth procedure: buffer the diffs of
 * /ws/depth while fetching `GET /depth`, drop buffered diffs the snapshot already contains, replay
 * the rest, then apply live diffs. The first diff applied must contain `lastUpdateId + 1` and every
 * later one must continue the previous; anything else is a gap, which throws (a client resyncs).
 */
export class DepthReplica {
  private readonly bids = new Map<string, string>();
  private readonly asks = new Map<string, string>();
  private buffered: DepthDiffMessage[] | undefined = [];
  private updateId = 0;

  constructor(readonly orderbookId: number) {}

  get lastUpdateId(): number {
    return this.updateId;
  }

  onDiff(diff: DepthDiffMessage): void {
    if (diff.orderbookId !== this.orderbookId) return;
    if (this.buffered === undefined) this.apply(diff);
    else this.buffered.push(diff);
  }

  onSnapshot(snapshot: DepthSnapshot): void {
    if (this.buffered === undefined) throw new Error('the replica already has its snapshot');
    for (const [price, size] of snapshot.bids) this.bids.set(price, size);
    for (const [price, size] of snapshot.asks) this.asks.set(price, size);
    this.updateId = snapshot.lastUpdateId;
    const buffered = this.buffered;
    this.buffered = undefined;
    for (const diff of buffered) this.apply(diff);
  }

  /** The book as `GET /depth` shows it: best levels first. */
  view(): DepthView {
    return { lastUpdateId: this.updateId, bids: ordered(this.bids, true), asks: ordered(this.asks, false) };
  }

  private apply(diff: DepthDiffMessage): void {
    if (diff.finalUpdateId <= this.updateId) return;
    if (diff.firstUpdateId > this.updateId + 1) {
      throw new Error(
        `book ${this.orderbookId}: gap after update ${this.updateId}, next diff is ${diff.firstUpdateId}..${diff.finalUpdateId}`,
      );
    }
    for (const [side, levels] of [
      [this.bids, diff.bids],
      [this.asks, diff.asks],
    ] as const) {
      for (const [price, size] of levels) {
        if (size === '0') side.delete(price);
        else side.set(price, size);
      }
    }
    this.updateId = diff.finalUpdateId;
  }
}
