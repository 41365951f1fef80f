/**
 * The baselines of bench:ws: a bare `ws` server that broadcasts one frame to every client, in its
 * own process like the service's server. Started by bare-broadcast.ts over IPC: it answers
 * `listening` with its port; `replay` sends frames of the given sizes at the given times (the
 * service's own diffs, paced as it published them), `drain` sends `messages` frames of `bytes`
 * bytes as fast as the sockets drain; each frame carries the time it was due, for latency, and
 * both answer `sent`. `stop` closes it.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

/** A frame of a replay: due `at` ms after the replay's start, `bytes` long. */
export interface PacedFrame {
  readonly at: number;
  readonly bytes: number;
}

export type BareParentMessage =
  | { type: 'replay'; startAt: number; frames: readonly PacedFrame[] }
  | { type: 'drain'; messages: number; bytes: number }
  | { type: 'stop' };
export type BareChildMessage = { type: 'listening'; port: number } | { type: 'sent' };

/** A drain waits while any socket holds more than this unsent, as a server must not buffer without bound. */
const HIGH_WATER_BYTES = 64 * 1024;

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, clientTracking: true });

function tell(message: BareChildMessage): void {
  process.send?.(message);
}

/** A JSON frame of exactly `bytes` bytes (at least its fixed part) stamped `stamp` (unix ms). */
function frame(stamp: number, bytes: number): Buffer {
  const head = `{"t":${stamp},"pad":"`;
  return Buffer.from(`${head}${'x'.repeat(Math.max(0, bytes - head.length - 2))}"}`);
}

/** Encoded once, the same bytes written to every socket. */
function broadcast(body: Buffer): void {
  for (const socket of server.clients) socket.send(body);
}

function backlogged(): boolean {
  for (const socket of server.clients) if (socket.bufferedAmount > HIGH_WATER_BYTES) return true;
  return false;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves at `due` (unix ms), or on the next turn when it is past: a late frame goes out at once. */
function until(due: number): Promise<void> {
  const wait = due - Date.now();
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : nextTurn();
}

/** Each frame at its time, stamped with that time, so a late send counts in the latency as a late diff does. */
async function replay(startAt: number, frames: readonly PacedFrame[]): Promise<void> {
  for (const { at, bytes } of frames) {
    const due = startAt + at;
    await until(due);
    broadcast(frame(due, bytes));
  }
}

async function drain(messages: number, bytes: number): Promise<void> {
  for (let sent = 0; sent < messages; sent++) {
    broadcast(frame(Date.now(), bytes));
    await nextTurn();
    while (backlogged()) await nextTurn();
  }
}

server.on('listening', () => tell({ type: 'listening', port: (server.address() as AddressInfo).port }));
process.on('message', (message: BareParentMessage) => {
  if (message.type === 'stop') {
    for (const socket of server.clients) socket.terminate();
    server.close(() => process.exit(0));
    return;
  }
  const sending = message.type === 'replay' ? replay(message.startAt, message.frames) : drain(message.messages, message.bytes);
  void sending.then(() => tell({ type: 'sent' }));
});
