import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { builtEntry, issueApiKey, tempDataDir } from '../test-support/harness.js';
import { loadConfig } from './config.js';
import { createLogger } from './logging.js';
import { type RunningServer, startServer } from './server.js';

/** The built main, as `npm start` runs it (main.test.ts runs it from its sources). */
const MAIN = fileURLToPath(builtEntry(new URL('./main.ts', import.meta.url)));
const cleanups: (() => Promise<void> | void)[] = [];
/**
 * Bounds on a launched service's start and stop with its devnet chain: generous, since the suite's
 * other files share the cores (a start once took more than 15 s).
 */
const START_MS = 60_000;
const STOP_MS = 20_000;

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function running(env: Record<string, string> = {}): Promise<RunningServer> {
  const data = tempDataDir();
  cleanups.push(data.remove);
  const server = await startServer(
    loadConfig({ DATA_DIR: data.dir, PORT: '0', LOG_LEVEL: 'silent', ...env }),
    createLogger('silent'),
  );
  cleanups.push(() => server.close());
  return server;
}

/** Sends raw bytes on one TCP connection and resolves with everything the server answered. */
function rawExchange(port: number, first: string, beforeRest: () => void, rest: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(first, () => {
      beforeRest();
      setTimeout(() => socket.write(rest), 50);
    });
  });
}

describe('startServer', () => {
  it('listens on loopback and serves the seeded devnet', async () => {
    const server = await running();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const books = (await (await fetch(`${server.url}/books`)).json()) as { total: number };
    expect(books.total).toBe(4);
  });

  it('serves the data API under /data, or on a port of its own with DATA_API_PORT', async () => {
    const shared = await running();
    expect(shared.dataApiUrl).toBe(`${shared.url}/data`);
    expect((await fetch(`${shared.dataApiUrl}/tokens`)).status).toBe(401);

    const own = await running({ DATA_API_PORT: '0' });
    const { key } = await issueApiKey(own, 10);
    expect(new URL(own.dataApiUrl).port).not.toBe(new URL(own.url).port);
    const tokens = await fetch(`${own.dataApiUrl}/tokens`, { headers: { 'x-api-key': key } });
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('x-ratelimit-remaining')).toBe('9');
    expect((await fetch(`${own.url}/data/tokens`, { headers: { 'x-api-key': key } })).status).toBe(404);
    expect((await fetch(`${own.url}/books`)).status).toBe(200);
  });

  it('serves metrics on METRICS_PORT only, and stops serving them when it closes', async () => {
    const data = tempDataDir();
    cleanups.push(data.remove);
    const server = await startServer(
      loadConfig({ DATA_DIR: data.dir, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'silent', CHAIN: 'off' }),
      createLogger('silent'),
    );
    if (server.metricsUrl === null) throw new Error('no metrics listener');
    expect(new URL(server.metricsUrl).port).not.toBe(new URL(server.url).port);
    const scrape = await fetch(`${server.metricsUrl}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('# TYPE dex_order_intake_total counter');
    expect((await fetch(`${server.metricsUrl}/books`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    await server.close();
    await expect(fetch(`${server.metricsUrl}/metrics`)).rejects.toThrow();
    expect((await running({ CHAIN: 'off' })).metricsUrl).toBeNull();
  });

  it('answers 503 SHUTTING_DOWN to a request that arrives while it drains', async () => {
    const server = await running();
    const port = Number(new URL(server.url).port);
    let closed: Promise<void> | undefined;
    const answer = await rawExchange(
      port,
      'GET /health HTTP/1.1\r\nHost: x\r\n',
      () => {
        closed = server.close();
      },
      '\r\n',
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    expect(answer).toContain('{"error":"The service is shutting down","code":"SHUTTING_DOWN"}');
  });

  it('keeps the store across restarts without seeding twice', async () => {
    const data = tempDataDir();
    cleanups.push(data.remove);
    const config = loadConfig({ DATA_DIR: data.dir, PORT: '0', LOG_LEVEL: 'silent' });
    const first = await startServer(config, createLogger('silent'));
    await first.services.store.books.update(2, { isHalted: true }, Date.now());
    await first.close();
    const second = await startServer(config, createLogger('silent'));
    cleanups.push(() => second.close());
    expect(second.services.registry.list().map((market) => market.book.isHalted)).toEqual([false, true, false, false]);
    expect(second.services.engines.engine(2)?.isHalted).toBe(true);
  });
});

describe('main', () => {
  function launch(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // A clean stop, which stops its devnet node too: after a kill -9 the node would live on for
      // its grace period, writing into the data folder the next cleanup removes.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
      await exited;
      clearTimeout(timer);
    });
    return { child, output: () => text, exited };
  }

  async function listeningUrl(output: () => string): Promise<string> {
    const deadline = Date.now() + START_MS;
    while (Date.now() < deadline) {
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*order book API listening/.exec(output());
      if (match) return match[1] as string;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`server did not start:\n${output()}`);
  }

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'serves until %s, then drains and exits 0',
    async (signal) => {
      const data = tempDataDir();
      cleanups.push(data.remove);
      const { child, output, exited } = launch({ DATA_DIR: data.dir, PORT: '0' });
      const url = await listeningUrl(output);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(output()).toContain('"msg":"shutting down"');
    },
    START_MS + STOP_MS,
  );

  it('refuses a bad configuration with exit code 2 and the variable named', async () => {
    const { output, exited } = launch({ PORT: 'eighty' });
    expect(await exited).toBe(2);
    expect(output()).toContain('configuration error: PORT must be a whole number');
  });
});
