import type { BookDepthChange, DeskCommit } from '../../application/desk/desk-events.js';
import { displayLevel } from '../../application/market-data/market-data-service.js';
import type { MarketRegistry } from '../../application/markets/market-registry.js';
import type { Metrics } from '../../ports/metrics.js';
import { ConnectionIndex } from './connection-index.js';
import { type DepthDiffMessage, type EncodedBody, encodeBody, type MessageBody } from './protocol.js';
import type { StreamConnection } from './stream-connection.js';

/**
 * /ws/depth: every stored depth change of a book goes to the connections that follow the book, as
 * one diff per book and commit group. A diff is serialised once and only numbered per connection,
 * and counted once for all of them.
 */
export class DepthChannel {
  private readonly followers = new ConnectionIndex<number>();

  constructor(
    private readonly registry: MarketRegistry,
    private readonly metrics: Metrics,
  ) {}

  add(connection: StreamConnection, books: Iterable<number>): void {
    for (const bookId of books) this.followers.add(bookId, connection);
  }

  remove(connection: StreamConnection, books: Iterable<number>): void {
    for (const bookId of books) this.followers.remove(bookId, connection);
  }

  publish(commit: DeskCommit): void {
    for (const change of commit.depth) {
      const followers = this.followers.get(change.bookId);
      if (followers === undefined) continue;
      const encoded = this.encode(change);
      if (encoded === undefined) continue;
      let sent = 0;
      for (const connection of followers) if (connection.send(encoded)) sent++;
      this.metrics.streamMessagesSent('depth', sent);
    }
  }

  private encode(change: BookDepthChange): EncodedBody | undefined {
    const market = this.registry.get(change.bookId);
    if (market === undefined) return undefined;
    const { grid } = market;
    const body: MessageBody<DepthDiffMessage> = {
      type: 'DEPTH_DIFF',
      orderbookId: String(change.bookId),
      firstUpdateId: change.firstUpdateId,
      finalUpdateId: change.finalUpdateId,
      timestamp: change.time,
      bids: change.bids.map((level) => displayLevel(grid, level)),
      asks: change.asks.map((level) => displayLevel(grid, level)),
    };
    return encodeBody(body);
  }
}
