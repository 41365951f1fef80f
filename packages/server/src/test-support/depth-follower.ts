import type { DepthDiffMessage, ServerMessage } from '../edges/ws/protocol.js';
import { DepthReplica, type DepthSnapshot } from './depth-replica.js';
import { StreamClient, streamUrl } from './stream-client.js';

const isDiff = (message: ServerMessage): message is DepthDiffMessage => message.type === 'DEPTH_DIFF';

/** `GET /depth/:orderbookId` of a listening server, over HTTP. */
export async function fetchDepth(
  base: string,
  bookId: number,
): Promise<DepthSnapshot & { bids: [string, string][]; asks: [string, string][] }> {
  const response = await fetch(`${base}/depth/${bookId}`);
  if (response.status !== 200) throw new Error(`GET /depth/${bookId} answered ${response.status}`);
  return (await response.json()) as DepthSnapshot & { bids: [string, string][]; asks: [string, string][] };
}

/**
 * A client following one book the reliable way: it opens /ws/depth, buffers diffs while it fetches
 * `GET /depth`, replays them on the snapshot and then applies live diffs to its replica.
 */
export class DepthFollower {
  /** The first gap the replica found; a real client would resync, a test fails. */
  failure: Error | undefined;

  private constructor(
    readonly client: StreamClient,
    readonly replica: DepthReplica,
  ) {
    const follow = (message: ServerMessage) => {
      if (!isDiff(message)) return;
      try {
        replica.onDiff(message);
      } catch (error) {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
      }
    };
    // A diff can arrive in the same packet as the handshake, before anyone listens: take those first.
    for (const message of client.messages) follow(message);
    client.onMessage(follow);
  }

  /** Follows a book; `keepMessages: false` keeps only the replica (for many followers at once). */
  static async start(base: string, token: string, bookId: number, keepMessages = true): Promise<DepthFollower> {
    const client = await StreamClient.open(streamUrl(base, 'depth', { token, books: String(bookId) }), {}, keepMessages);
    const follower = new DepthFollower(client, new DepthReplica(bookId));
    follower.replica.onSnapshot(await fetchDepth(base, bookId));
    return follower;
  }

  /** Resolves once the replica has applied every update up to `updateId`; rejects on a gap. */
  async reach(updateId: number, timeoutMs?: number): Promise<void> {
    if (this.replica.lastUpdateId < updateId && this.failure === undefined) {
      await this.client.waitFor((message) => isDiff(message) && message.finalUpdateId >= updateId, timeoutMs);
    }
    if (this.failure !== undefined) throw this.failure;
  }
}
