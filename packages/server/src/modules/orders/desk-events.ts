import type { FastifyBaseLogger } from 'fastify';
import type { OrderEventRecord } from '../../store/order-ports.js';
import type { NewTrade } from '../../store/ports.js';

/** A price level as `[price in ticks, total resting size in size steps]`; size 0 means the level is gone. */
export type LevelSize = readonly [price: number, size: number];

/**
 * What a commit group changed on one book's depth: the updates `firstUpdateId..finalUpdateId`
 * (consecutive, continuing the book's previous change) folded into the last size of every level
 * they touched.
 */
export interface BookDepthChange {
  readonly bookId: number;
  readonly firstUpdateId: number;
  readonly finalUpdateId: number;
  /** Server time (unix ms) of the earliest engine turn folded in. */
  readonly time: number;
  /** Best first: bids by falling price, asks by rising price. */
  readonly bids: readonly LevelSize[];
  readonly asks: readonly LevelSize[];
}

/** A stored history event of an order, with its owner and where the order stands after it. */
export interface CommittedOrderEvent extends OrderEventRecord {
  readonly account: string;
  readonly bookId: number;
  /** The order's filled size after this event, in size steps. */
  readonly filledSteps: number;
}

export interface CommittedTrade extends NewTrade {
  readonly id: number;
}

/** Everything one commit group stored, in commit order. */
export interface DeskCommit {
  readonly depth: readonly BookDepthChange[];
  readonly orderEvents: readonly CommittedOrderEvent[];
  readonly trades: readonly CommittedTrade[];
}

export type DeskListener = (commit: DeskCommit) => void;

/**
 * The trading desk's publication seam: after a commit group is durably stored, and before any of
 * its requests is answered, the desk publishes what it changed, one group at a time in commit
 * order. Writes that failed are never published. Listeners (the WebSocket gateway, later the
 * settler) run synchronously and must not throw; one that does is logged and the others still run,
 * because a subscriber's bug must never stop trading.
 */
export class DeskEvents {
  private readonly listeners = new Set<DeskListener>();

  constructor(private readonly logger: FastifyBaseLogger) {}

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: DeskListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Builds the commit only when someone listens, then hands it to every listener. */
  publish(build: () => DeskCommit): void {
    if (this.listeners.size === 0) return;
    let commit: DeskCommit;
    try {
      commit = build();
    } catch (error) {
      this.logger.error({ err: error }, 'a stored commit group could not be described; nothing was published for it');
      return;
    }
    for (const listener of this.listeners) {
      try {
        listener(commit);
      } catch (error) {
        this.logger.error({ err: error }, 'a desk event listener failed');
      }
    }
  }
}
