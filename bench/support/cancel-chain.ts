/**
 * bench:cancel's view of the devnet chain: when each OrderCancelled event reached a subscriber (the
 * moment the order is void on chain, give or take the push), and the reactor's word at the end that
 * every order cancelled through the API is cancelled there.
 */
import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { type Address, createPublicClient, getAddress, type Hex, http, webSocket } from 'viem';
import type { StoredCancel } from './cancel-store.js';

/** Reactor reads in flight while checking the cancelled orders. */
const CHECKS_IN_FLIGHT = 16;

/**
 * Follows the reactor's OrderCancelled events over a WebSocket subscription (anvil pushes each
 * block's logs as it mines it), so the time an event arrives here is when its transaction was
 * mined, without polling the node and adding to its load.
 */
export class CancelWatcher {
  /** Order hash (lower case) to the time its OrderCancelled event arrived (unix ms). */
  private readonly seen = new Map<string, number>();
  private readonly client;
  private unwatch: (() => void) | undefined;
  private failure: unknown = null;

  constructor(
    rpcUrl: string,
    private readonly reactor: Address,
  ) {
    this.client = createPublicClient({
      transport: webSocket(rpcUrl.replace(/^http/, 'ws'), { keepAlive: false, reconnect: false }),
    });
  }

  /** Subscribes; resolves once the node took the subscription, so nothing mined after it is missed. */
  async start(): Promise<void> {
    await this.client.transport.getRpcClient();
    this.unwatch = this.client.watchContractEvent({
      address: this.reactor,
      abi: PartialFillLimitOrderReactor.abi,
      eventName: 'OrderCancelled',
      poll: false,
      onLogs: (logs) => {
        const now = Date.now();
        for (const log of logs) if (log.args.orderHash !== undefined) this.seen.set(log.args.orderHash.toLowerCase(), now);
      },
      onError: (error) => {
        this.failure ??= error;
      },
    });
    // watchContractEvent subscribes in the background: one round trip on the same socket comes back after it.
    await this.client.getBlockNumber({ cacheTime: 0 });
  }

  /** When the order's OrderCancelled event arrived, or undefined if it did not. */
  minedAt(orderHash: string): number | undefined {
    return this.seen.get(orderHash.toLowerCase());
  }

  /** A subscription that failed may have missed events: a problem of the run. */
  check(problems: string[]): void {
    if (this.failure !== null) problems.push(`the OrderCancelled subscription failed: ${String(this.failure)}`);
  }

  async stop(): Promise<void> {
    this.unwatch?.();
    (await this.client.transport.getRpcClient()).close();
  }
}

/** Cancelled orders the reactor does not call cancelled (`cancelled(swapper, hash)`), read at the head. */
export async function notCancelledOnChain(rpcUrl: string, reactor: Address, rows: readonly StoredCancel[]): Promise<number> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  let missing = 0;
  for (let at = 0; at < rows.length; at += CHECKS_IN_FLIGHT) {
    const answers = await Promise.all(
      rows.slice(at, at + CHECKS_IN_FLIGHT).map((row) =>
        client.readContract({
          address: reactor,
          abi: PartialFillLimitOrderReactor.abi,
          functionName: 'cancelled',
          args: [getAddress(row.swapper), row.orderHash as Hex],
        }),
      ),
    );
    missing += answers.filter((cancelled) => !cancelled).length;
  }
  return missing;
}
