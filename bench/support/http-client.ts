/** HTTP for the benchmarks: keep-alive sockets, bodies as raw bytes, a bounded wait per request. */
import { Agent, type IncomingHttpHeaders, request } from 'node:http';

const REQUEST_TIMEOUT_MS = 60_000;

export interface Reply {
  readonly status: number;
  readonly body: Buffer;
  readonly headers: IncomingHttpHeaders;
}

/** A small keep-alive client: one socket per request in flight, bodies as raw bytes. */
export class HttpClient {
  private readonly agent: Agent;

  /** `headers` go with every request (e.g. an API key). */
  constructor(
    private readonly base: URL,
    sockets: number,
    private readonly headers: Readonly<Record<string, string>> = {},
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  send(method: 'GET' | 'POST', path: string, body?: Buffer | string, token?: string): Promise<Reply> {
    const headers: Record<string, string | number> = { accept: 'application/json', ...this.headers };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { host: this.base.hostname, port: this.base.port, path, method, agent: this.agent, headers },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () =>
            resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks), headers: incoming.headers }),
          );
          incoming.on('error', reject);
        },
      );
      outgoing.setTimeout(REQUEST_TIMEOUT_MS, () => outgoing.destroy(new Error(`${method} ${path} timed out`)));
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  /** A JSON call that must answer 200. */
  async json<T>(method: 'GET' | 'POST', path: string, payload?: unknown, token?: string): Promise<T> {
    const reply = await this.send(method, path, payload === undefined ? undefined : JSON.stringify(payload), token);
    if (reply.status !== 200) throw new Error(`${method} ${path} answered ${reply.status}: ${snippet(reply.body)}`);
    return JSON.parse(reply.body.toString('utf8')) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

export function snippet(body: Buffer): string {
  const text = body.toString('utf8');
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}
