import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { BaseError, createPublicClient, HttpRequestError, http, RpcRequestError, TimeoutError } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { keepAliveFetch } from './keep-alive-fetch.js';

type Handler = (request: { method: string; id: number }[] | { method: string; id: number }, response: ServerResponse) => void;

interface Node {
  readonly url: string;
  readonly connections: Socket[];
  readonly bodies: string[];
  close(): Promise<void>;
}

let node: Node | undefined;

afterEach(async () => {
  await node?.close();
  node = undefined;
});

/** A JSON-RPC node on loopback that answers as `handle` says. */
async function startNode(handle: Handler): Promise<Node> {
  const connections: Socket[] = [];
  const bodies: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      bodies.push(body);
      handle(JSON.parse(body), response);
    });
  });
  server.on('connection', (socket) => connections.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    bodies,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(response: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

const blockNumber: Handler = (request, response) => {
  const one = (call: { id: number }) => ({ jsonrpc: '2.0', id: call.id, result: '0x2a' });
  answer(response, Array.isArray(request) ? request.map(one) : one(request));
};

/** The error of `kind` in a failed call's chain of causes, or null. */
function causeOf<T>(failure: unknown, kind: abstract new (...args: never[]) => T): T | null {
  return failure instanceof BaseError ? (failure.walk((error) => error instanceof kind) as T | null) : null;
}

/** Runs a call that must fail and answers its error. */
function failureOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  );
}

function clientOf(url: string, options: { timeout?: number; batch?: boolean } = {}) {
  const transport = http(url, {
    fetchFn: keepAliveFetch(),
    retryCount: 0,
    timeout: options.timeout ?? 5_000,
    batch: options.batch === true ? { wait: 0 } : false,
  });
  return createPublicClient({ transport });
}

describe('the JSON-RPC fetch over kept-alive node:http connections', () => {
  it('answers calls through viem one after another on a single connection', async () => {
    node = await startNode(blockNumber);
    const client = clientOf(node.url);
    for (let call = 0; call < 5; call++) expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(42n);
    expect(node.connections).toHaveLength(1);
    expect(JSON.parse(node.bodies[0] as string)).toMatchObject({ jsonrpc: '2.0', method: 'eth_blockNumber' });
  });

  it("sends calls made at once as one batch, as viem's batching asks", async () => {
    node = await startNode(blockNumber);
    const client = clientOf(node.url, { batch: true });
    const answers = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), client.getChainId()]);
    expect(answers).toEqual([42n, 42]);
    expect(node.bodies).toHaveLength(1);
    expect(JSON.parse(node.bodies[0] as string)).toHaveLength(2);
  });

  it("keeps a JSON-RPC error's code and message", async () => {
    node = await startNode((request, response) =>
      answer(response, { jsonrpc: '2.0', id: (request as { id: number }).id, error: { code: -32000, message: 'nonce too low' } }),
    );
    const failure = await failureOf(clientOf(node.url).getBlockNumber({ cacheTime: 0 }));
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('nonce too low');
    expect(causeOf(failure, RpcRequestError)).toMatchObject({ code: -32000 });
  });

  it('hands viem a refusal with its status and Retry-After, which viem waits on before retrying', async () => {
    node = await startNode((_request, response) => answer(response, { error: 'slow down' }, 429, { 'retry-after': '7' }));
    const failure = await failureOf(clientOf(node.url).getBlockNumber({ cacheTime: 0 }));
    const refusal = causeOf(failure, HttpRequestError);
    expect(refusal?.status).toBe(429);
    expect(refusal?.headers?.get('Retry-After')).toBe('7');
  });

  it("ends a call the node never answers with viem's TimeoutError, and closes its connection", async () => {
    node = await startNode(() => {});
    const started = performance.now();
    const failure = await failureOf(clientOf(node.url, { timeout: 200 }).getBlockNumber({ cacheTime: 0 }));
    expect(causeOf(failure, TimeoutError)).toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(2_000);
    const socket = node.connections[0] as Socket;
    await new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));
  });

  it('reads an answer the node compressed', async () => {
    node = await startNode((request, response) => {
      const zipped = gzipSync(JSON.stringify({ jsonrpc: '2.0', id: (request as { id: number }).id, result: '0x7' }));
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(zipped);
    });
    expect(await clientOf(node.url).getBlockNumber({ cacheTime: 0 })).toBe(7n);
  });

  it('refuses an answer over 10 MiB while it arrives', async () => {
    node = await startNode((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      for (let written = 0; written < 11; written++) response.write(chunk);
      response.end('{}');
    });
    const failure = await failureOf(clientOf(node.url).getBlockNumber({ cacheTime: 0 }));
    expect((failure as Error).message).toContain('passed 10485760 bytes');
  });

  it('reports a node that refuses the connection as an HTTP request failure', async () => {
    node = await startNode(blockNumber);
    const { url } = node;
    await node.close();
    node = undefined;
    const failure = await failureOf(clientOf(url).getBlockNumber({ cacheTime: 0 }));
    expect(causeOf(failure, HttpRequestError)).toBeInstanceOf(HttpRequestError);
    expect((failure as Error).message).toContain('ECONNREFUSED');
  });
});
