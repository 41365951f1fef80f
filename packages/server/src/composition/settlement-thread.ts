import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '@dex/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type AttachableChain, attachmentOf } from '../adapters/chain/attached-chain.js';
import type { ChainContext } from '../adapters/chain/chain-context.js';
import { applySettlementCommand } from '../application/command-log/desk-command-handler.js';
import type { DeskEvents } from '../application/desk/desk-events.js';
import type { Metrics } from '../ports/metrics.js';
import type { PoolReservesListener, SettlementDesk } from '../ports/settlement-desk.js';
import type { Closers } from './closers.js';
import type { Config } from './config.js';
import { RestartCount } from './restart-gate.js';
import type { FromSettlementThread, SettlementThreadData, ToSettlementThread } from './settlement-thread-messages.js';
import { wakesOf } from './settlement-wiring.js';

/** How long the thread may take to stop (its last poll and catch-up with the chain) before it is cut off. */
const CLOSE_GRACE_MS = 5_000;

/** The settlement thread as the service sees it. */
export interface SettlementThread {
  /** Settles if the thread stopped without being asked to: the service cannot settle, and must stop. */
  readonly failed: Promise<Error>;
}

/** Whether the settler, the cancel relay and the indexers run on a thread of their own (`npm start`), or on the desk's. */
export type SettlementPlacement = 'thread' | 'inline';

function post(worker: Worker, message: ToSettlementThread): void {
  worker.postMessage(message);
}

/** Runs the thread's commands on the desk and answers them; records its figures. */
function serveThread(
  worker: Worker,
  deps: { desk: SettlementDesk & PoolReservesListener; metrics: Metrics | null; logger: FastifyBaseLogger },
): (message: FromSettlementThread) => void {
  return (message) => {
    if (message.type === 'metric') {
      if (deps.metrics !== null) Reflect.apply(deps.metrics[message.name], deps.metrics, message.args);
      return;
    }
    if (message.type !== 'command') return;
    const { id, command } = message;
    applySettlementCommand(deps.desk, command).then(
      (value) => {
        if (id !== null) post(worker, { type: 'answer', id, ok: true, value });
      },
      (error: unknown) => {
        if (id !== null) post(worker, { type: 'answer', id, ok: false, message: String((error as Error)?.message ?? error) });
        else deps.logger.warn({ err: error, kind: command.kind }, 'a report of the settlement thread failed');
      },
    );
  };
}

/**
 * Starts settlement (the settler, the cancel relay and the indexers) on a worker thread with its
 * own store connection, attached to the chain this process opened: the chain's JSON-RPC, the
 * operator's signing and the indexers' decoding leave the thread that answers orders, and use
 * the machine's other core. The reactor's verdicts come back as messages, applied to the desk
 * here; the desk's stored commit groups and the devnet node's restarts go to the thread. Resolves
 * once the thread has reconciled with the chain, as the settlement in this thread would.
 */
export async function startSettlementThread(
  config: Config,
  chain: AttachableChain & Pick<ChainContext, 'restarts'>,
  deps: {
    desk: SettlementDesk & PoolReservesListener;
    deskEvents: Pick<DeskEvents, 'subscribe'>;
    /** The service's registry, which records the thread's figures; null: none are counted. */
    metrics: Metrics | null;
    logger: FastifyBaseLogger;
  },
  closers: Closers,
): Promise<SettlementThread> {
  const restarts = new RestartCount();
  chain.restarts?.subscribeRestarting?.(() => restarts.begin());
  const workerData: SettlementThreadData = {
    config,
    chain: attachmentOf(chain),
    countMetrics: deps.metrics !== null,
    restarts: restarts.memory,
  };
  const worker = moduleWorker(import.meta.url, 'settlement-thread-worker', { workerData });
  let asked = false;
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  const started = new Promise<void>((resolve) =>
    worker.on('message', (message: FromSettlementThread) => {
      if (message.type === 'started') resolve();
    }),
  );
  worker.on('message', serveThread(worker, deps));
  let reason: Error | undefined;
  worker.on('error', (error) => {
    reason = error;
  });
  const failed = exited.then((code) => reason ?? new Error(`the settlement thread stopped unasked (exit code ${code})`));
  const stopWakes = wakesOf(deps.deskEvents).subscribe(({ fills }) => post(worker, { type: 'wake', fills }));
  chain.restarts?.subscribe((head) => {
    if (!asked) post(worker, { type: 'restarted', head, upTo: restarts.begun });
  });
  const close = async (): Promise<void> => {
    asked = true;
    stopWakes();
    post(worker, { type: 'close' });
    await Promise.race([exited, sleep(CLOSE_GRACE_MS)]);
    await worker.terminate();
  };
  closers.add(close);
  const outcome = await Promise.race([started.then(() => null), failed]);
  if (outcome !== null) throw new Error('settlement could not start', { cause: outcome });
  return { failed: failed.then((error) => (asked ? new Promise<Error>(() => {}) : error)) };
}
