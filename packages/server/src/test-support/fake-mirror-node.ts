import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export type MirrorHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** A stand-in mirror node on 127.0.0.1: answers per path, records every request it sees. */
export interface FakeMirror {
  readonly server: Server;
  readonly url: string;
  readonly routes: Map<string, MirrorHandler>;
  readonly requests: string[];
}

export async function startMirror(): Promise<FakeMirror> {
  const routes = new Map<string, MirrorHandler>();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    requests.push(url);
    const handler = routes.get(new URL(url, 'http://mirror').pathname);
    if (handler === undefined) json(404, NOT_FOUND)(request, response);
    else handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, routes, requests };
}

export async function stopMirror(mirror: FakeMirror): Promise<void> {
  mirror.server.closeAllConnections();
  await new Promise<void>((resolve, reject) => mirror.server.close((error) => (error ? reject(error) : resolve())));
}

export function json(status: number, body: unknown): MirrorHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

export const NOT_FOUND = { _status: { messages: [{ message: 'Not found' }] } };

/** A fake mirror node for the tests of a describe block: started before them, emptied before each, stopped after. */
export function useFakeMirror(): FakeMirror {
  let mirror: FakeMirror | undefined;
  const started = (): FakeMirror => {
    if (mirror === undefined) throw new Error('the fake mirror node runs inside the tests only');
    return mirror;
  };
  beforeAll(async () => {
    mirror = await startMirror();
  });
  afterAll(async () => {
    if (mirror !== undefined) await stopMirror(mirror);
  });
  beforeEach(() => {
    started().routes.clear();
    started().requests.length = 0;
  });
  return {
    get server() {
      return started().server;
    },
    get url() {
      return started().url;
    },
    get routes() {
      return started().routes;
    },
    get requests() {
      return started().requests;
    },
  };
}
