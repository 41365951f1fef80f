/**
 * Runs the bare `ws` broadcast baseline (bare-broadcast-child.ts) with the same number of clients,
 * frame size and frame count as the service's run, its clients in this process parsing each frame
 * as the service's clients do.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import type { BareChildMessage, BareParentMessage } from './bare-broadcast-child.js';
import { type CpuUse, cpuMark, cpuUse } from './cpu.js';
import { LatencyRecorder } from './latency-recorder.js';
import { nextMessage } from './server-process.js';

const CHILD_ENTRY = resolve(fileURLToPath(import.meta.url), '../bare-broadcast-child.ts');
const JOINING_AT_ONCE = 25;

export interface BareBroadcastRun {
  readonly clients: number;
  /** Frames broadcast to every client. */
  readonly messages: number;
  readonly bytes: number;
  readonly timeLimitMs: number;
}

export interface BareBroadcastFigures {
  readonly delivered: number;
  readonly seconds: number;
  readonly latencies: Float64Array;
  /** CPU seconds of the broadcast: the bare server's and the clients' (this process). */
  readonly cpu: CpuUse<'server'>;
}

function connect(port: number, recorder: LatencyRecorder): Promise<WebSocket> {
  return new Promise((resolveOpen, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
    socket.on('message', (data: Buffer) => recorder.record((JSON.parse(data.toString()) as { t: number }).t));
    socket.once('open', () => resolveOpen(socket));
    socket.once('error', reject);
  });
}

export async function measureBareBroadcast(run: BareBroadcastRun): Promise<BareBroadcastFigures> {
  const child = fork(CHILD_ENTRY, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T extends BareChildMessage['type']>(type: T) => nextMessage<T, BareChildMessage>(child, type, run.timeLimitMs);
  const tell = (message: BareParentMessage) => child.send(message);
  const sockets: WebSocket[] = [];
  try {
    const { port } = await next('listening');
    const recorder = new LatencyRecorder();
    for (let start = 0; start < run.clients; start += JOINING_AT_ONCE) {
      const joining = Math.min(JOINING_AT_ONCE, run.clients - start);
      sockets.push(...(await Promise.all(Array.from({ length: joining }, () => connect(port, recorder)))));
    }
    const expected = run.clients * run.messages;
    recorder.measuring = true;
    const before = cpuMark({ server: child.pid });
    const start = Date.now();
    const sent = next('sent');
    tell({ type: 'broadcast', messages: run.messages, bytes: run.bytes });
    await sent;
    while (recorder.count < expected && Date.now() - start < run.timeLimitMs) await new Promise((wait) => setTimeout(wait, 10));
    recorder.measuring = false;
    return {
      delivered: recorder.count,
      seconds: (recorder.lastReceipt - start) / 1000,
      latencies: recorder.sortedLatencies(),
      cpu: cpuUse(before, cpuMark({ server: child.pid })),
    };
  } finally {
    for (const socket of sockets) socket.terminate();
    if (child.connected) tell({ type: 'stop' });
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  }
}
