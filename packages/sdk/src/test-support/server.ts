import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, loadConfig, type RunningServer, startServer } from '@dex/server';
import { runOperatorOn } from '@dex/server/test-support';
import type { FetchFn } from '../client.js';

export { DEVNET_ADDRESS, issueApiKey, seedBookOneDepth, tradeOnBookOne } from '@dex/server/test-support';

export interface TestServer {
  /** The running server; a new one after {@link TestServer.restart}. */
  readonly server: RunningServer;
  readonly url: string;
  /** Stops the server (streams close with 1001) and starts it again on the same port and store. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real order book API on loopback, with its store in a fresh temporary folder; settlement is
 * off unless `env` sets CHAIN (these tests read market data the tests' own trades make).
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dex-sdk-test-'));
  try {
    const settings = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', CHAIN: 'off', ...env };
    let server = await startServer(loadConfig(settings), createLogger('silent'));
    const port = new URL(server.url).port;
    return {
      get server() {
        return server;
      },
      url: server.url,
      restart: async () => {
        await server.close();
        server = await startServer(loadConfig({ ...settings, PORT: port }), createLogger('silent'));
      },
      close: async () => {
        try {
          await server.close();
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The global fetch, with every requested URL written down. */
export function recordingFetch(): { fetch: FetchFn; urls: string[]; headers: Headers[] } {
  const urls: string[] = [];
  const headers: Headers[] = [];
  return {
    urls,
    headers,
    fetch: (url, init) => {
      urls.push(url);
      headers.push(new Headers(init.headers));
      return globalThis.fetch(url, init);
    },
  };
}

export interface RawServer {
  readonly url: string;
  /** The listening server (a WebSocket proxy listens for its upgrades). */
  readonly server: Server;
  close(): Promise<void>;
}

/** A plain HTTP server on loopback answering every request with `handler`: a stand-in for a proxy. */
export async function startRawServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<RawServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** A loopback URL on which nothing listens: a port taken from the OS and released at once. */
export async function unusedUrl(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${address.port}`;
}

let nextAccount = 7100;

/**
 * A fresh devnet ledger account with an Ed25519 key, registered with the operator CLI as a user
 * would (`account add`); returns its id. With settlement on, the key must also be published.
 */
export async function registerEd25519Account(server: RunningServer, publicKey: Uint8Array): Promise<string> {
  const account = `0.0.${nextAccount++}`;
  const { code, out } = await runOperatorOn(
    server,
    'account',
    'add',
    '--id',
    account,
    '--key-type',
    'ed25519',
    '--public-key',
    Buffer.from(publicKey).toString('hex'),
  );
  if (code !== 0) throw new Error(`account add failed: ${out}`);
  return account;
}

/** Rewrites the JSON answer of one route; the request reaches the real server unchanged. */
export type AnswerRewrite = (path: string, body: unknown) => unknown;

/**
 * A real HTTP proxy on loopback in front of `target` that can rewrite JSON answers: a stand-in
 * for a compromised or buggy server, to show what the client refuses to sign.
 */
export async function startRewritingProxy(target: string, rewrite: AnswerRewrite): Promise<RawServer> {
  return startRawServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
      }
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      globalThis
        .fetch(`${target}${request.url ?? '/'}`, { method: request.method ?? 'GET', headers, ...(body ? { body } : {}) })
        .then(async (answer) => {
          const text = await answer.text();
          let out = text;
          if (answer.ok) out = JSON.stringify(rewrite((request.url ?? '').split('?')[0] ?? '', JSON.parse(text)));
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(out);
        })
        .catch((error: unknown) => {
          response.writeHead(502);
          response.end(String(error));
        });
    });
  });
}
