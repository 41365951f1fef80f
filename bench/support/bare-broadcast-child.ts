/**
 * The baseline of bench:ws: a bare `ws` server that broadcasts one frame to every client, as fast
 * as the sockets drain, in its own process like the service's server. Started by
 * bare-broadcast.ts over IPC: it answers `listening` with its port; `broadcast` sends `messages`
 * frames of `bytes` bytes (each carrying its send time, for latency) and answers `sent`; `stop`
 * closes it.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export type BareParentMessage = { type: 'broadcast'; messages: number; bytes: number } | { type: 'stop' };
export type BareChildMessage = { type: 'listening'; port: number } | { type: 'sent' };

/** A broadcast waits while any socket holds more than this unsent, as a server must not buffer without bound. */
const HIGH_WATER_BYTES = 64 * 1024;

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, clientTracking: true });

function tell(message: BareChildMessage): void {
  process.send?.(message);
}

/** A JSON frame of exactly `bytes` bytes (at least its fixed part) stamped with the time now. */
function frame(bytes: number): Buffer {
  const head = `{"t":${Date.now()},"pad":"`;
  return Buffer.from(`${head}${'x'.repeat(Math.max(0, bytes - head.length - 2))}"}`);
}

function backlogged(): boolean {
  for (const socket of server.clients) if (socket.bufferedAmount > HIGH_WATER_BYTES) return true;
  return false;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function broadcast(messages: number, bytes: number): Promise<void> {
  for (let sent = 0; sent < messages; sent++) {
    // Encoded once, the same bytes written to every socket.
    const body = frame(bytes);
    for (const socket of server.clients) socket.send(body);
    await nextTurn();
    while (backlogged()) await nextTurn();
  }
}

server.on('listening', () => tell({ type: 'listening', port: (server.address() as AddressInfo).port }));
process.on('message', (message: BareParentMessage) => {
  if (message.type === 'broadcast') {
    void broadcast(message.messages, message.bytes).then(() => tell({ type: 'sent' }));
  } else {
    for (const socket of server.clients) socket.terminate();
    server.close(() => process.exit(0));
  }
});
