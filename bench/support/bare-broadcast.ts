/**
 * The bare `ws` baselines of bench:ws (bare-broadcast-child.ts): the same number of clients as the
 * service's run, in this process, parsing each frame as the service's clients do. `replay` sends
 * the service's own diffs again (their count, sizes and times); `drain` sends frames as fast as
 * the sockets drain, the most a bare server delivers to these clients.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import type { BareChildMessage, BareParentMessage, PacedFrame } from './bare-broadcast-child.js';
import { type CpuUse, cpuMark, cpuUse } from './cpu.js';
import { LatencyRecorder } from './latency-recorder.js';
import { nextMessage } from './server-process.js';

export type { PacedFrame } from './bare-broadcast-child.js';

const CHILD_ENTRY = resolve(fileURLToPath(import.meta.url), '../bare-broadcast-child.ts');
const JOINING_AT_ONCE = 25;
const POLL_MS = 10;

export interface BareBroadcastFigures {
  readonly delivered: number;
  /** From the start of the broadcast to the last frame received. */
  readonly seconds: number;
  /** From the time each frame was due to its receipt, ms. */
  readonly latencies: Float64Array;
  /** CPU seconds of the broadcast: the bare server's and the clients' (this process). */
  readonly cpu: CpuUse<'server'>;
}

/** A bare server in its own process with its clients connected; `stop` ends both. */
export class BareBroadcast {
  private recorder = new LatencyRecorder();

  private constructor(
    private readonly child: ChildProcess,
    private readonly sockets: WebSocket[],
    private readonly timeLimitMs: number,
  ) {}

  static async start(clients: number, timeLimitMs: number): Promise<BareBroadcast> {
    const child = fork(CHILD_ENTRY, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const bare = new BareBroadcast(child, [], timeLimitMs);
    try {
      const { port } = await nextMessage<'listening', BareChildMessage>(child, 'listening', timeLimitMs);
      for (let start = 0; start < clients; start += JOINING_AT_ONCE) {
        const joining = Array.from({ length: Math.min(JOINING_AT_ONCE, clients - start) }, () => bare.connect(port));
        bare.sockets.push(...(await Promise.all(joining)));
      }
      return bare;
    } catch (error) {
      bare.stop();
      throw error;
    }
  }

  /** The service's diffs again, each frame sent to every client at its time. */
  replay(frames: readonly PacedFrame[]): Promise<BareBroadcastFigures> {
    return this.measure(frames.length, (startAt) => ({ type: 'replay', startAt, frames }));
  }

  /** `messages` frames of `bytes` bytes, each sent once the sockets have taken the previous one. */
  drain(messages: number, bytes: number): Promise<BareBroadcastFigures> {
    return this.measure(messages, () => ({ type: 'drain', messages, bytes }));
  }

  stop(): void {
    for (const socket of this.sockets) socket.terminate();
    if (this.child.connected) this.tell({ type: 'stop' });
    setTimeout(() => this.child.kill('SIGKILL'), 5_000).unref();
  }

  private connect(port: number): Promise<WebSocket> {
    return new Promise((resolveOpen, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
      socket.on('message', (data: Buffer) => this.recorder.record((JSON.parse(data.toString()) as { t: number }).t));
      socket.once('open', () => resolveOpen(socket));
      socket.once('error', reject);
    });
  }

  private tell(message: BareParentMessage): void {
    this.child.send(message);
  }

  /** Sends `frames` frames to every client and waits until they all arrived (or the time limit passed). */
  private async measure(frames: number, order: (startAt: number) => BareParentMessage): Promise<BareBroadcastFigures> {
    const recorder = new LatencyRecorder();
    this.recorder = recorder;
    const expected = this.sockets.length * frames;
    recorder.measuring = true;
    const before = cpuMark({ server: this.child.pid });
    const start = Date.now();
    const sent = nextMessage<'sent', BareChildMessage>(this.child, 'sent', this.timeLimitMs);
    this.tell(order(start));
    await sent;
    while (recorder.count < expected && Date.now() - start < this.timeLimitMs)
      await new Promise((wait) => setTimeout(wait, POLL_MS));
    recorder.measuring = false;
    return {
      delivered: recorder.count,
      seconds: (recorder.lastReceipt - start) / 1000,
      latencies: recorder.sortedLatencies(),
      cpu: cpuUse(before, cpuMark({ server: this.child.pid })),
    };
  }
}
