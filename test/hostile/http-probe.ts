/** Sends hostile requests over real sockets and judges the answers against the error catalogue. */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { ERROR_CATALOGUE } from '../../packages/server/src/domain/errors.js';
import type { HostileRequest } from './hostile-requests.js';

export interface Answer {
  /** The HTTP status, or 0 when the connection ended without one. */
  readonly status: number;
  readonly text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/**
 * One request over HTTP/1.1 as Node's client writes it; a reset connection answers status 0. A
 * request that meets a reset is sent once more on a connection of its own: a kept-alive connection
 * the server closed after an earlier answer (a 413 stops reading the body) is not its answer.
 */
export async function send(base: string, hostile: HostileRequest): Promise<Answer> {
  const answer = await sendOnce(base, hostile, agent);
  return answer.status === 0 ? sendOnce(base, hostile, false) : answer;
}

function sendOnce(base: string, hostile: HostileRequest, through: Agent | false): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const headers: Record<string, string | string[]> = { ...hostile.headers };
    if (hostile.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hostile.body));
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: hostile.method,
        path: hostile.path,
        headers,
        agent: through,
        timeout: 20_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (error) => resolve({ status: 0, text: String(error) }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer in 20 s')));
    outgoing.on('error', (error) => resolve({ status: 0, text: String(error) }));
    outgoing.end(hostile.body);
  });
}

/** Bytes straight onto a socket (requests Node's client refuses to write); the answer as read until the server closes or goes quiet. */
export function sendRaw(base: string, bytes: string | Buffer): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const finish = () => {
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ status: status === undefined ? 0 : Number(status), text: status === undefined ? text : body });
    };
    socket.setTimeout(2_000, finish);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One answer is all that is judged; keep-alive would otherwise hold the socket open.
      const text = Buffer.concat(chunks).toString('latin1');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text)?.[1];
      const head = text.indexOf('\r\n\r\n');
      if (length !== undefined && head >= 0 && Buffer.byteLength(text, 'latin1') >= head + 4 + Number(length)) finish();
    });
    socket.on('close', finish);
    socket.on('error', finish);
    socket.write(bytes);
  });
}

/** What is wrong with an answer: a 5xx, or an error body outside the catalogue's shape; undefined when it is fine. */
export function problemWith(answer: Answer): string | undefined {
  const { status, text } = answer;
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} with a body that is not JSON: ${text.slice(0, 300)}`;
  }
  const { error, code, ...rest } = (body ?? {}) as { error?: unknown; code?: unknown };
  const entry =
    typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code)
      ? ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE]
      : undefined;
  if (typeof error !== 'string' || entry === undefined)
    return `status ${status} with a body outside the catalogue: ${text.slice(0, 300)}`;
  if (entry.status !== status)
    return `status ${status} for code ${String(code)}, which the catalogue answers with ${entry.status}`;
  const extra = Object.keys(rest).filter((key) => key !== 'index');
  if (extra.length > 0) return `error body with extra fields ${extra.join(', ')}`;
  return undefined;
}
