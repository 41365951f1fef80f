/**
 * The round-trip floor of bench:latency: a bare node:http server in its own process (as the
 * service's is), which reads a request's body whole and answers a JSON body of the size the
 * request's path names (`/375`), built once per size. Started by bare-http.ts over
 * IPC: it answers `listening` with its port; `stop` closes it. It exits when its parent goes away.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type BareHttpChildMessage = { type: 'listening'; port: number };
export type BareHttpParentMessage = { type: 'stop' };

/** Larger answers than any of the routes measured are refused, so a typo cannot allocate without bound. */
const MOST_BYTES = 1 << 20;
const bodies = new Map<number, Buffer>();

/** A JSON body of exactly `bytes` bytes (at least its fixed part). */
function bodyOf(bytes: number): Buffer {
  let body = bodies.get(bytes);
  if (body === undefined) {
    const head = '{"pad":"';
    body = Buffer.from(`${head}${'x'.repeat(Math.max(0, bytes - head.length - 2))}"}`);
    bodies.set(bytes, body);
  }
  return body;
}

const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  const bytes = Number((request.url ?? '').slice(1));
  request.resume();
  request.on('end', () => {
    if (!Number.isSafeInteger(bytes) || bytes < 0 || bytes > MOST_BYTES) {
      response.writeHead(400).end();
      return;
    }
    const body = bodyOf(bytes);
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    response.end(body);
  });
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port } satisfies BareHttpChildMessage);
});
process.on('message', (message: BareHttpParentMessage) => {
  if (message.type === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(1));
