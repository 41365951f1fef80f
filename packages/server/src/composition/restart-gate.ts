import type { JsonRpcFetch } from '../adapters/chain/keep-alive-fetch.js';

/**
 * The devnet node's restarts as counted by the thread that runs the node: in shared memory, so
 * that the settlement thread sees a restart begin at once, not when a message arrives.
 */
export class RestartCount {
  readonly memory = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  private readonly count = new Int32Array(this.memory);

  /** A restart begins: the node is about to be stopped or started again. */
  begin(): void {
    Atomics.add(this.count, 0, 1);
  }

  /** Restarts begun so far. */
  get begun(): number {
    return Atomics.load(this.count, 0);
  }
}

/** What a call through a closed gate fails with: as it would on the node while it is down. */
export class NodeRestartingError extends Error {
  override readonly name = 'NodeRestartingError';
}

/**
 * The settlement thread's side: its JSON-RPC fails while a restart has begun that it has not been
 * told of, as it would on a node that is down. On the service's own thread a restart's listeners
 * run before anything reaches the new node (the reconciler takes the restart's head, not one read
 * from the node: blocks mined first would hide the lost ones); the gate keeps that order for a
 * thread that hears of the restart by message. A call is failed, not held: one sent later would
 * reach the new chain with what was prepared for the old one (a nonce, a cancellation the
 * reconciler sends again).
 */
export class RestartGate {
  private readonly count: Int32Array;
  private told = 0;
  private released = false;

  constructor(memory: SharedArrayBuffer) {
    this.count = new Int32Array(memory);
  }

  /** Told of the restarts begun up to `upTo` (the count when the latest one finished): open unless another began since. */
  toldUpTo(upTo: number): void {
    this.told = Math.max(this.told, upTo);
  }

  /** Opens for good: the thread is closing, and its last calls must not fail on a restart it will never hear of. */
  release(): void {
    this.released = true;
  }

  /** `fetchFn` behind the gate. */
  guard(fetchFn: JsonRpcFetch): JsonRpcFetch {
    return async (input, init) => {
      if (!this.released && Atomics.load(this.count, 0) !== this.told) {
        throw new NodeRestartingError('the devnet node is being started again');
      }
      return fetchFn(input, init);
    };
  }
}
