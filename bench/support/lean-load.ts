/**
 * A load generator leaner than autocannon, for a machine where the generator shares two cores with
 * the server it loads: raw keep-alive sockets, one prebuilt request each, an answer read only as
 * far as its status and Content-Length, the body counted and never parsed. Same discipline as
 * autocannon (each connection sends its next GET when its answer is in, for a fixed time); its
 * CPU per answer is a fraction of a bare node:http server's, so the server stays the bottleneck.
 */
import { connect, type Socket } from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');
const LENGTH_FIELD = /\r\ncontent-length: *(\d+)/i;
/** Past its duration, answers still owed are waited for this long, then their sockets closed. */
const DRAIN_MS = 5_000;

export interface LeanRun {
  readonly url: URL;
  readonly path: string;
  readonly connections: number;
  readonly seconds: number;
  /** Called with each answer's status, whole size in bytes (headers and body) and latency in ms. */
  readonly onAnswer: (status: number, bytes: number, ms: number) => void;
}

export interface LeanResult {
  /** Sockets that failed or closed while an answer was owed, and answers that could not be read. */
  readonly errors: number;
}

/** One connection's loop: send, read the answer, send again until `until`. */
class Connection {
  private head: Buffer | null = null;
  private bodyLeft = -1;
  private bytes = 0;
  private status = 0;
  private sentAt = 0;
  /** From the start: a socket that fails to connect owes its first answer. */
  private owed = true;

  constructor(
    private readonly socket: Socket,
    private readonly request: Buffer,
    private readonly until: number,
    private readonly run: LeanRun,
    private readonly fail: (reason: string) => void,
    private readonly finished: () => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', () => this.stop('socket error'));
    socket.on('close', () => this.stop('socket closed'));
  }

  send(): void {
    this.owed = true;
    this.sentAt = performance.now();
    this.socket.write(this.request);
  }

  private read(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bodyLeft >= 0) this.bodyLeft -= chunk.length;
    else if (!this.readHead(chunk)) return;
    if (this.bodyLeft > 0) return;
    if (this.bodyLeft < 0) {
      this.stop('more bytes than the answer announced');
      return;
    }
    this.run.onAnswer(this.status, this.bytes, performance.now() - this.sentAt);
    this.owed = false;
    this.bodyLeft = -1;
    this.bytes = 0;
    if (performance.now() < this.until) this.send();
    else this.stop(undefined);
  }

  /** Reads the status and length once the head is whole (false before, or for a head without a length). */
  private readHead(chunk: Buffer): boolean {
    const head = this.head === null ? chunk : Buffer.concat([this.head, chunk]);
    const end = head.indexOf(HEADER_END);
    if (end < 0) {
      this.head = head;
      return false;
    }
    this.head = null;
    const text = head.toString('latin1', 0, end);
    const length = LENGTH_FIELD.exec(text)?.[1];
    if (length === undefined) {
      this.stop('an answer without Content-Length');
      return false;
    }
    this.status = Number(text.slice(9, 12));
    this.bodyLeft = Number(length) - (head.length - end - HEADER_END.length);
    return true;
  }

  /** Ends the loop: a reason is a failure when an answer was owed. */
  stop(reason: string | undefined): void {
    if (this.socket.destroyed && !this.owed) return;
    if (this.owed && reason !== undefined) this.fail(reason);
    this.owed = false;
    this.socket.destroy();
    this.finished();
  }
}

/** Drives `connections` sockets for `seconds`; resolves once every socket is closed (bounded). */
export async function leanLoad(run: LeanRun): Promise<LeanResult> {
  const request = Buffer.from(`GET ${run.path} HTTP/1.1\r\nHost: ${run.url.host}\r\nConnection: keep-alive\r\n\r\n`);
  const until = performance.now() + run.seconds * 1000;
  let errors = 0;
  let open = run.connections;
  const connections: Connection[] = [];
  await new Promise<void>((resolve) => {
    const finished = () => {
      if (--open === 0) resolve();
    };
    const guard = setTimeout(
      () => {
        for (const connection of connections) connection.stop('no answer before the end');
      },
      run.seconds * 1000 + DRAIN_MS,
    );
    guard.unref();
    for (let index = 0; index < run.connections; index++) {
      const socket = connect({ host: run.url.hostname, port: Number(run.url.port) });
      const connection = new Connection(socket, request, until, run, () => errors++, finished);
      connections.push(connection);
      socket.once('connect', () => connection.send());
    }
  });
  return { errors };
}
