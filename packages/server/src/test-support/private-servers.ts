import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long a private server may take to say it is ready (JetStream recovers its store first). */
const READY_TIMEOUT_MS = 20_000;

function installed(command: string): boolean {
  const found = spawnSync(command, ['--version']).status === 0;
  if (!found) console.warn(`NOTICE: no ${command} on the PATH; the runs on a private ${command} are skipped`);
  return found;
}

/** Whether a private nats-server (with JetStream) can be started here. */
export const PRIVATE_NATS = installed('nats-server');
/** Whether a private redis-server can be started here. */
export const PRIVATE_REDIS = installed('redis-server');

/** The private servers running: killed when the test process exits, should a test end without closing them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A port of 127.0.0.1 that was free a moment ago: the OS picks it, so tests running together do not meet. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/** A server of the test's own on a loopback port, to kill -9 and start again as an outage does. */
export interface PrivateServer {
  readonly url: string;
  /** SIGKILLs it and resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder; resolves once it says it is ready. */
  start(): Promise<void>;
  /** Kills it (if it runs) and removes its folder. */
  close(): Promise<void>;
}

interface ServerSpec {
  readonly command: string;
  readonly args: (port: number, dir: string) => string[];
  /** The line it logs once it takes connections. */
  readonly ready: RegExp;
  readonly scheme: string;
}

async function startPrivateServer(spec: ServerSpec): Promise<PrivateServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'dex-private-'));
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    const server = spawn(spec.command, spec.args(port, dir), { stdio: ['ignore', 'pipe', 'pipe'] });
    child = server;
    running.add(server);
    exited = new Promise((resolve) => server.once('exit', () => resolve()));
    void exited.then(() => running.delete(server));
    const output: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${spec.command} was not ready in time:\n${output.join('')}`)),
        READY_TIMEOUT_MS,
      );
      const seen = (chunk: Buffer) => {
        output.push(chunk.toString());
        if (!spec.ready.test(output.join(''))) return;
        clearTimeout(timer);
        resolve();
      };
      server.stdout?.on('data', seen);
      server.stderr?.on('data', seen);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${spec.command} exited:\n${output.join('')}`));
      });
    });
  };
  const kill = async () => {
    if (child === null) return;
    child.kill('SIGKILL');
    child = null;
    await exited;
  };
  try {
    await start();
  } catch (error) {
    await kill();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `${spec.scheme}://127.0.0.1:${port}`,
    kill,
    start,
    close: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A nats-server with JetStream, its store in a folder of its own: a restart finds its streams again. */
export function startPrivateNats(): Promise<PrivateServer> {
  return startPrivateServer({
    command: 'nats-server',
    args: (port, dir) => ['-js', '-sd', dir, '-a', '127.0.0.1', '-p', String(port)],
    ready: /Server is ready/,
    scheme: 'nats',
  });
}

/** A redis-server that keeps nothing on disk, as the deployment's: a restart starts it empty. */
export function startPrivateRedis(): Promise<PrivateServer> {
  return startPrivateServer({
    command: 'redis-server',
    args: (port, dir) => ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    ready: /Ready to accept connections/,
    scheme: 'redis',
  });
}

/**
 * A loopback TCP proxy that hands each new connection to the first of `targets` that accepts it, as
 * a load balancer in front of several gateways does: once one dies, new connections reach the next.
 */
export async function startFailoverProxy(targets: readonly { host: string; port: number }[]): Promise<{
  readonly port: number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const pair = (client: Socket, index: number) => {
    const target = targets[index];
    if (target === undefined) return void client.destroy();
    const upstream = connect(target);
    track(upstream);
    upstream.once('error', () => pair(client, index + 1));
    upstream.once('connect', () => {
      upstream.removeAllListeners('error');
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  };
  const server = createServer((client) => {
    track(client);
    client.on('error', () => client.destroy());
    pair(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
  return {
    port: address.port,
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return closed;
    },
  };
}
