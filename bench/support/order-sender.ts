/**
 * bench:ws's order sender as a child process (order-sender-child.ts): forked before the clock
 * starts, it saves the signed batches when told and reports what it saved.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SenderBatch, SenderChildMessage, SenderParentMessage } from './order-sender-child.js';
import { CHILD_START_MS, nextMessage } from './server-process.js';

const CHILD_ENTRY = resolve(fileURLToPath(import.meta.url), '../order-sender-child.ts');

export interface OrderSender {
  readonly pid: number | undefined;
  /** Saves the batches at `url`, `inFlight` at a time; resolves with the orders saved, rejects on a refusal or past `deadline`. */
  save(url: URL, batches: readonly SenderBatch[], inFlight: number, deadline: number): Promise<number>;
  stop(): void;
}

export async function startOrderSender(): Promise<OrderSender> {
  const child = fork(CHILD_ENTRY, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T extends SenderChildMessage['type']>(type: T, timeoutMs: number) =>
    nextMessage<T, SenderChildMessage>(child, type, timeoutMs);
  await next('ready', CHILD_START_MS);
  return {
    pid: child.pid,
    save: async (url, batches, inFlight, deadline) => {
      const saved = next('saved', Math.max(1, deadline - Date.now()) + CHILD_START_MS);
      const message: SenderParentMessage = { type: 'save', url: url.toString(), batches: [...batches], inFlight, deadline };
      child.send(message);
      return (await saved).saved;
    },
    stop: () => {
      child.kill();
    },
  };
}
