/** The baseline server of bench:rest (bare-rest-child.ts) in its own process, told which bytes to answer. */
import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BareRestChildMessage, BareRestParentMessage } from './bare-rest-child.js';
import { CHILD_START_MS, nextMessage } from './server-process.js';

const CHILD_ENTRY = resolve(fileURLToPath(import.meta.url), '../bare-rest-child.ts');
/** A bare server closes at once: past this it is killed. */
const STOP_MS = 5_000;

export class BareRestServer {
  private constructor(
    readonly child: ChildProcess,
    readonly url: URL,
  ) {}

  /** Starts the child; `stop` it at the end (it also exits when this process goes away). */
  static async start(): Promise<BareRestServer> {
    const child = fork(CHILD_ENTRY, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    try {
      const { port } = await nextMessage<'listening', BareRestChildMessage>(child, 'listening', CHILD_START_MS);
      return new BareRestServer(child, new URL(`http://127.0.0.1:${port}/`));
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
  }

  /** From now on each path is answered with its bytes. */
  async serve(bodies: ReadonlyMap<string, Buffer>): Promise<void> {
    const served = nextMessage<'served', BareRestChildMessage>(this.child, 'served', CHILD_START_MS);
    const encoded = Object.fromEntries([...bodies].map(([path, body]) => [path, body.toString('base64')]));
    this.child.send({ type: 'serve', bodies: encoded } satisfies BareRestParentMessage);
    await served;
  }

  async stop(): Promise<void> {
    const { child } = this;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    if (child.connected) child.send({ type: 'stop' } satisfies BareRestParentMessage);
    else child.kill('SIGKILL');
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
    await exited;
    clearTimeout(killer);
  }
}
