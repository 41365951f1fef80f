import { DepthBook } from '@dex/protocol';
import type { DepthDiffMessage } from '../edges/ws/protocol.js';

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

/**
 * A local copy of one book kept by the spec's reliable-depth procedure: buffer the diffs of
 * /ws/depth while fetching `GET /depth`, then keep the book with the protocol's `DepthBook`, as the SDK does (drop what
 * the snapshot holds, replay, apply live diffs; a gap throws, and a client would resync). The
 * server's stream tests check the server against the book an integrator's client keeps.
 */
export class DepthReplica {
  private book: DepthBook | undefined;
  private buffered: DepthDiffMessage[] = [];

  constructor(readonly orderbookId: number) {}

  get lastUpdateId(): number {
    return this.book?.lastUpdateId ?? 0;
  }

  onDiff(diff: DepthDiffMessage): void {
    if (diff.orderbookId !== String(this.orderbookId)) return;
    if (this.book === undefined) this.buffered.push(diff);
    else this.book.apply(diff);
  }

  onSnapshot(snapshot: DepthSnapshot): void {
    if (this.book !== undefined) throw new Error('the replica already has its snapshot');
    const { lastUpdateId, bids, asks } = snapshot;
    const book = new DepthBook({ orderbookId: this.orderbookId, timestamp: 0, lastUpdateId, bids, asks });
    for (const diff of this.buffered) book.apply(diff);
    this.buffered = [];
    this.book = book;
  }

  /** The book as `GET /depth` shows it: best levels first. */
  view(): DepthView {
    return { lastUpdateId: this.lastUpdateId, bids: this.book?.bids() ?? [], asks: this.book?.asks() ?? [] };
  }
}
