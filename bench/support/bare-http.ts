/**
 * The round-trip floor of bench:latency: the bare node:http server of bare-http-child.ts, in its
 * own process, and round trips to it through the benchmarks' own keep-alive client, with request
 * and answer bodies of a route's sizes.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BareHttpChildMessage, BareHttpParentMessage } from './bare-http-child.js';
import { HttpClient } from './http-client.js';
import { CHILD_START_MS, nextMessage } from './server-process.js';

const CHILD_ENTRY = resolve(fileURLToPath(import.meta.url), '../bare-http-child.ts');
const CHILD_STOP_MS = 5_000;

export interface BareHttpServer {
  readonly url: URL;
  stop(): Promise<void>;
}

/** Starts the bare server; stop it at the end (it also exits when this process goes away). */
export async function startBareHttp(): Promise<BareHttpServer> {
  const child: ChildProcess = fork(CHILD_ENTRY, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    if (child.connected) child.send({ type: 'stop' } satisfies BareHttpParentMessage);
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_STOP_MS);
    await exited;
    clearTimeout(timer);
  };
  try {
    const { port } = await nextMessage<'listening', BareHttpChildMessage>(child, 'listening', CHILD_START_MS);
    return { url: new URL(`http://127.0.0.1:${port}/`), stop };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** The sizes of a route's bodies, in bytes. */
export interface BodySizes {
  readonly request: number;
  readonly answer: number;
}

/**
 * `count` round trips (POST with a body of `sizes.request` bytes, answered with `sizes.answer`)
 * from `clients` clients at once, each with its own keep-alive socket (opened by an untimed request
 * first) and one request at a time; the milliseconds of each, sorted.
 */
export async function bareRoundTrips(url: URL, sizes: BodySizes, clients: number, count: number): Promise<number[]> {
  const body = Buffer.alloc(sizes.request, 'x');
  const path = `/${sizes.answer}`;
  const latencies: number[] = [];
  const client = async (turns: number) => {
    const http = new HttpClient(url, 1);
    try {
      // Not timed: opens the socket, as the service's clients' sockets are open before their clock starts.
      await http.send('POST', path, body);
      for (let turn = 0; turn < turns; turn++) {
        const before = performance.now();
        const reply = await http.send('POST', path, body);
        latencies.push(performance.now() - before);
        if (reply.status !== 200 || reply.body.length !== sizes.answer)
          throw new Error(`the bare server answered ${reply.status} with ${reply.body.length} bytes for ${sizes.answer}`);
      }
    } finally {
      http.close();
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(shareOf(count, clients, index))));
  return latencies.sort((a, b) => a - b);
}

/** Client `index`'s share of `count` things spread evenly over `clients`. */
export function shareOf(count: number, clients: number, index: number): number {
  return Math.floor(count / clients) + (index < count % clients ? 1 : 0);
}
