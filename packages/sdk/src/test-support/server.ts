import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, loadConfig, type RunningServer, startServer } from '@dex/server';
import type { FetchFn } from '../client.js';

export { DEVNET_ADDRESS, seedBookOneDepth, tradeOnBookOne } from '@dex/server/test-support';

export interface TestServer {
  readonly server: RunningServer;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The real order book API on loopback, with its store in a fresh temporary folder; settlement is
 * off unless `env` sets CHAIN (these tests read market data the tests' own trades make).
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dex-sdk-test-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', CHAIN: 'off', ...env });
    const server = await startServer(config, createLogger('silent'));
    return {
      server,
      url: server.url,
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

/** A plain HTTP server on loopback answering every request with `handler`: a stand-in for a proxy. */
export async function startRawServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
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
