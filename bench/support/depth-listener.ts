/**
 * A /ws/depth client of bench:ws. Every listener parses each frame and checks its `seq`, as the
 * baseline's clients parse theirs, so both runs ask the same of the clients' process; a sample of
 * them also keeps a replica of the book by the reliable-depth procedure, checked against GET /depth.
 */
import { DepthFollower } from '../../packages/server/src/test-support/depth-follower.js';
import type { DepthReplica } from '../../packages/server/src/test-support/depth-replica.js';
import { StreamClient, streamUrl } from '../../packages/server/src/test-support/stream-client.js';

export class DepthListener {
  /** The newest update id a diff brought. */
  private newest = 0;

  private constructor(
    readonly client: StreamClient,
    private readonly follower: DepthFollower | undefined,
  ) {
    client.onMessage((message) => {
      if (message.type === 'DEPTH_DIFF') this.newest = message.finalUpdateId;
    });
  }

  /** Follows `bookId` at `base`; with `replica`, keeps the book too. */
  static async start(base: string, token: string, bookId: number, replica: boolean): Promise<DepthListener> {
    if (replica) {
      const follower = await DepthFollower.start(base, token, bookId, false);
      return new DepthListener(follower.client, follower);
    }
    const client = await StreamClient.open(streamUrl(base, 'depth', { token, books: String(bookId) }), {}, false);
    return new DepthListener(client, undefined);
  }

  /** The replica, for the listeners that keep one. */
  get replica(): DepthReplica | undefined {
    return this.follower?.replica;
  }

  /** Resolves once a diff up to `updateId` arrived (and, with a replica, was applied); rejects on a gap or after `timeoutMs`. */
  async reach(updateId: number, timeoutMs: number): Promise<void> {
    if (this.follower !== undefined) return this.follower.reach(updateId, timeoutMs);
    if (this.newest >= updateId) return;
    await this.client.waitFor((message) => message.type === 'DEPTH_DIFF' && message.finalUpdateId >= updateId, timeoutMs);
  }
}
