/**
 * The /ws/depth followers of bench:ws and what they measure: every diff's latency, the diffs one of
 * them received (their times and sizes, which the bare baseline replays), and at the end whether
 * each follower got every diff and each replica equals GET /depth.
 */
import type { ServerMessage } from '../../packages/server/src/edges/ws/protocol.js';
import { fetchDepth } from '../../packages/server/src/test-support/depth-follower.js';
import type { Account } from './accounts.js';
import type { PacedFrame } from './bare-broadcast.js';
import { DepthListener } from './depth-listener.js';
import { LatencyRecorder } from './latency-recorder.js';
import { BENCH_BOOK } from './market.js';
import type { ServerProcess } from './server-process.js';

/** Followers that open their stream and fetch their snapshot at the same time. */
const JOINING_AT_ONCE = 25;
const CATCH_UP_MS = 60_000;

/** The diffs every client receives while the clock runs. */
export class Deliveries extends LatencyRecorder {
  diff(message: ServerMessage): void {
    if (message.type === 'DEPTH_DIFF') this.record(message.timestamp);
  }
}

/**
 * The diffs of one follower from `begin` on: when each change was made (the diff's timestamp, the
 * server's clock on this machine) after the run's start, and the frame's size, so the baseline
 * sends the same frames at the same pace.
 */
export class DiffSchedule {
  readonly frames: PacedFrame[] = [];
  private start: number | undefined;

  begin(start: number): void {
    this.start = start;
  }

  end(): void {
    this.start = undefined;
  }

  diff(message: ServerMessage): void {
    if (this.start === undefined || message.type !== 'DEPTH_DIFF') return;
    // Re-encoding the parsed frame gives its bytes: keys keep their order and every value is ASCII.
    this.frames.push({ at: Math.max(0, message.timestamp - this.start), bytes: JSON.stringify(message).length });
  }

  meanBytes(): number {
    const total = this.frames.reduce((sum, frame) => sum + frame.bytes, 0);
    return this.frames.length === 0 ? 0 : Math.round(total / this.frames.length);
  }
}

/**
 * Connects `count` followers, spread evenly over the servers; the first `replicas` keep the book.
 * Every diff goes to `deliveries`, the first follower's to `schedule` too.
 */
export async function joinFollowers(
  servers: readonly ServerProcess[],
  accounts: readonly Account[],
  counts: { readonly clients: number; readonly replicas: number },
  deliveries: Deliveries,
  schedule: DiffSchedule,
): Promise<DepthListener[]> {
  const followers: DepthListener[] = [];
  for (let start = 0; start < counts.clients; start += JOINING_AT_ONCE) {
    const joining = Array.from({ length: Math.min(JOINING_AT_ONCE, counts.clients - start) }, async (_, index) => {
      const which = start + index;
      const account = accounts[which % accounts.length] as Account;
      const base = (servers[which % servers.length] as ServerProcess).url.origin;
      const follower = await DepthListener.start(base, account.token, BENCH_BOOK.id, which < counts.replicas);
      follower.client.onMessage((message) => deliveries.diff(message));
      if (which === 0) follower.client.onMessage((message) => schedule.diff(message));
      return follower;
    });
    followers.push(...(await Promise.all(joining)));
  }
  return followers;
}

export interface FollowerCheck {
  /** Followers that reached the last update with no seq gap, still connected. */
  readonly reached: number;
  /** Replicas equal to GET /depth. */
  readonly equal: number;
  readonly failures: string[];
}

/**
 * Once every follower has caught up with GET /depth: how many reached its update whole (no seq gap,
 * still connected), and how many replicas equal it; answers the problems found.
 */
export async function checkFollowers(server: ServerProcess, followers: readonly DepthListener[]): Promise<FollowerCheck> {
  const snapshot = await fetchDepth(server.url.origin, BENCH_BOOK.id);
  const failures = new Map<string, number>();
  const note = (problem: string) => failures.set(problem, (failures.get(problem) ?? 0) + 1);
  let reached = 0;
  let equal = 0;
  await Promise.all(
    followers.map(async (follower) => {
      try {
        await follower.reach(snapshot.lastUpdateId, CATCH_UP_MS);
      } catch (error) {
        note(`a client did not reach update ${snapshot.lastUpdateId}: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      if (follower.client.seqGaps > 0) note('a client saw a gap in seq');
      else if (follower.client.socket.readyState !== follower.client.socket.OPEN) note('a client was disconnected');
      else reached++;
      if (follower.replica === undefined) return;
      const view = follower.replica.view();
      const same =
        view.lastUpdateId === snapshot.lastUpdateId &&
        JSON.stringify(view.bids) === JSON.stringify(snapshot.bids) &&
        JSON.stringify(view.asks) === JSON.stringify(snapshot.asks);
      if (same) equal++;
      else note("a client's book differs from GET /depth");
    }),
  );
  return { reached, equal, failures: [...failures].map(([problem, times]) => `${problem} (${times}x)`) };
}
