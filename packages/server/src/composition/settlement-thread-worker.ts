/**
 * The service's settlement thread (see settlement-thread.ts): the settler, the cancel relay and the
 * indexers on their own event loop and store connection, telling the desk the reactor's verdicts
 * over the thread's port.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { attachChain } from '../adapters/chain/attached-chain.js';
import { devnetOperatorKey } from '../adapters/chain/devnet/embedded-devnet.js';
import { keepAliveFetch } from '../adapters/chain/keep-alive-fetch.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import type { SettlementCommand } from '../application/command-log/desk-commands.js';
import { type Metrics, noMetrics } from '../ports/metrics.js';
import type { FailedFill, PairReserves, PoolReservesListener, SettledSwap, SettlementDesk } from '../ports/settlement-desk.js';
import { Closers } from './closers.js';
import type { Config } from './config.js';
import { createLogger } from './logging.js';
import { RestartGate } from './restart-gate.js';
import {
  type FromSettlementThread,
  SETTLEMENT_METRICS,
  type SettlementThreadData,
  type ToSettlementThread,
} from './settlement-thread-messages.js';
import { type SettlementWakes, startSettlementApart } from './settlement-wiring.js';

const port = parentPort;
if (port === null) throw new Error('the settlement thread runs as a worker thread only');
const { config, chain: attachment, countMetrics, restarts } = workerData as SettlementThreadData;

function tell(message: FromSettlementThread): void {
  port?.postMessage(message);
}

/** The desk on the service's thread: each verdict a message, answered when the desk has stored its turn. */
class ThreadSettlementDesk implements SettlementDesk, PoolReservesListener {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  answered(message: Extract<ToSettlementThread, { type: 'answer' }>): void {
    const waiting = this.pending.get(message.id);
    this.pending.delete(message.id);
    if (message.ok) waiting?.resolve(message.value);
    else waiting?.reject(new Error(message.message));
  }

  private ask(command: SettlementCommand): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      tell({ type: 'command', id, command });
    });
  }

  async unwindFills(failures: readonly FailedFill[]): Promise<void> {
    await this.ask({ kind: 'unwindFills', failures });
  }

  async finalizeCancels(): Promise<number> {
    return (await this.ask({ kind: 'finalizeCancels' })) as number;
  }

  async cancelledOnChain(orderHash: string, txHash: string): Promise<void> {
    await this.ask({ kind: 'cancelledOnChain', orderHash, txHash });
  }

  async floorRaisedOnChain(account: string, floor: bigint, txHash: string): Promise<void> {
    await this.ask({ kind: 'floorRaisedOnChain', account, floor, txHash });
  }

  poolSwapsSettled(swaps: readonly SettledSwap[]): void {
    tell({ type: 'command', id: null, command: { kind: 'poolSwapsSettled', swaps } });
  }

  poolReservesSynced(pairs: readonly PairReserves[]): void {
    tell({ type: 'command', id: null, command: { kind: 'poolReservesSynced', pairs } });
  }
}

/** Settlement's figures, sent to the service's registry; the rest are never called here. */
function sentMetrics(): Metrics {
  if (!countMetrics) return noMetrics;
  const sent: Metrics = { ...noMetrics };
  for (const name of SETTLEMENT_METRICS) {
    Object.assign(sent, { [name]: (...args: Parameters<Metrics[typeof name]>) => tell({ type: 'metric', name, args }) });
  }
  return sent;
}

/** The operator's key, read where the service read it: its configuration, or the devnet's key file. */
function operatorKey(config: Config): `0x${string}` {
  if (config.chain.kind === 'devnet') return devnetOperatorKey(config.dataDir);
  if (config.chain.kind === 'rpc' && config.chain.operatorKey !== null) return config.chain.operatorKey;
  throw new Error('the settlement thread needs the operator key');
}

const logger = createLogger(config.logLevel).child({ thread: 'settlement' });
const closers = new Closers(logger, 'settlement thread');
const desk = new ThreadSettlementDesk();
const wakeListeners = new Set<(wake: { readonly fills: boolean }) => void>();
const wakes: SettlementWakes = {
  subscribe: (listener) => {
    wakeListeners.add(listener);
    return () => wakeListeners.delete(listener);
  },
};
const restartListeners: ((head: bigint) => void)[] = [];
const gate = new RestartGate(restarts);
const chain = attachChain(config, attachment, operatorKey(config), {
  restarts: { subscribe: (listener) => restartListeners.push(listener) },
  fetchFn: gate.guard(keepAliveFetch()),
});

port.on('message', (message: ToSettlementThread) => {
  switch (message.type) {
    case 'answer':
      return desk.answered(message);
    case 'wake':
      for (const listener of wakeListeners) listener(message);
      return;
    case 'restarted':
      // The listeners first: the reconciler takes the restart's head before any call reaches the node.
      for (const listener of restartListeners) listener(message.head);
      gate.toldUpTo(message.upTo);
      return;
    case 'close':
      gate.release();
      // In a worker, exit ends the thread alone: its kept-alive sockets do not hold it.
      void closers.closeAll().then(() => process.exit(0));
  }
});

try {
  await startSettlementApart(
    config,
    { desk, wakes, metrics: sentMetrics(), openChain: async () => chain, role: 'settlement' },
    { clock: systemClock, logger, closers },
  );
} catch (error) {
  // What opened is closed; the service hears the failure as the thread's error, and stops.
  await closers.closeAll();
  throw error;
}
tell({ type: 'started' });
