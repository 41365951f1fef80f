import type { DeskCommit, DeskListener } from '../../domain/orders/desk-commit.js';
import type { Logger } from '../../ports/logger.js';

export type {
  BookDepthChange,
  CommittedOrderEvent,
  CommittedTrade,
  DeskCommit,
  DeskListener,
  LevelSize,
} from '../../domain/orders/desk-commit.js';

/**
 * The trading desk's publication seam: after a commit group is durably stored, and before any of
 * its requests is answered, the desk publishes what it changed, one group at a time in commit
 * order. Writes that failed are never published. Listeners (the WebSocket gateway, later the
 * settler) run synchronously and must not throw; one that does is logged and the others still run,
 * because a subscriber's bug must never stop trading.
 */
export class DeskEvents {
  private readonly listeners = new Set<DeskListener>();

  constructor(private readonly logger: Logger) {}

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
