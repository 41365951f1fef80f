/**
 * The baseline of bench:rest: a bare node:http server in its own process (as the service's is)
 * answering each GET path it was given with that path's exact bytes, a JSON content type and a
 * length, and nothing else: no framework, no hooks, no ids. Started by bare-rest.ts over IPC: it
 * answers `listening` with its port; `serve` replaces its answers (`served` once they are in);
 * `stop` closes it. It exits when its parent goes away.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type BareRestChildMessage = { type: 'listening'; port: number } | { type: 'served' };
/** `bodies`: path (with its query) to the answer's bytes, base64. */
export type BareRestParentMessage = { type: 'serve'; bodies: Record<string, string> } | { type: 'stop' };

const CONTENT_TYPE = 'application/json; charset=utf-8';
let bodies = new Map<string, Buffer>();

const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  const body = bodies.get(request.url ?? '');
  if (request.method !== 'GET' || body === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': CONTENT_TYPE, 'content-length': body.length });
  response.end(body);
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port } satisfies BareRestChildMessage);
});
process.on('message', (message: BareRestParentMessage) => {
  if (message.type === 'serve') {
    bodies = new Map(Object.entries(message.bodies).map(([path, base64]) => [path, Buffer.from(base64, 'base64')]));
    process.send?.({ type: 'served' } satisfies BareRestChildMessage);
    return;
  }
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(1));
