/**
 * WebSocket abuse of the streams: hostile handshakes, and frames the server never asked for
 * (it reads none): bad JSON, binary, oversized, fragmented, floods, pings, raw invalid frames.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { WebSocket } from 'ws';
import { problemWith } from './http-probe.js';

/** Close codes an abused connection may end with: normal, going away, protocol error, bad data, policy, too big. */
const PROPER_CLOSE_CODES = new Set([1000, 1001, 1002, 1003, 1007, 1008, 1009]);

export interface AbuseTally {
  frames: number;
  handshakes: number;
  readonly problems: string[];
}

type Outcome =
  | { kind: 'open'; socket: WebSocket }
  | { kind: 'refused'; status: number; text: string }
  | { kind: 'failed'; error: string };

function wsUrl(base: string, pathAndQuery: string): string {
  return `${base.replace(/^http/, 'ws')}${pathAndQuery}`;
}

function attempt(url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024, handshakeTimeout: 5_000 });
    socket.once('open', () => resolve({ kind: 'open', socket }));
    socket.once('error', (error) => resolve({ kind: 'failed', error: String(error) }));
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ kind: 'refused', status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
  });
}

function closed(socket: WebSocket, timeoutMs: number): Promise<number | 'open'> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve(1006);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('open'), timeoutMs);
    socket.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Handshakes with hostile queries and paths: each is refused with a catalogue error, or opens. */
export async function abuseHandshakes(base: string, jwt: string, tally: AbuseTally): Promise<void> {
  const many = Array.from({ length: 5_000 }, (_, i) => String(i + 1)).join(',');
  const queries = [
    '/ws/depth',
    '/ws/depth?books=1',
    `/ws/depth?token=${jwt}`,
    `/ws/depth?token=${jwt}&books=99999999999999999999`,
    `/ws/depth?token=${jwt}&books=__proto__`,
    `/ws/depth?token=${jwt}&books=constructor,1`,
    `/ws/depth?token=${jwt}&books=-1`,
    `/ws/depth?token=${jwt}&books=1e400`,
    `/ws/depth?token=${jwt}&books=${'9'.repeat(4_000)}`,
    `/ws/depth?token=${jwt}&books=${many}`,
    `/ws/depth?token=${jwt}&books=${'1,'.repeat(3_000)}`,
    `/ws/depth?token=${jwt}&books=1&books=2`,
    `/ws/depth?token=${jwt}&books[]=1`,
    `/ws/depth?token=${jwt}&books=%ZZ`,
    `/ws/depth?token=${jwt}&books=1&welcome=maybe`,
    `/ws/depth?token=${jwt}&books=1&cancelOnDisconnect=true`,
    `/ws/user-events?token=${jwt}&cancelOnDisconnect=__proto__`,
    `/ws/user-events?token=${jwt}&token=${jwt}`,
    `/ws/user-events?token=${jwt}x`,
    `/ws/user-events?token=${'A'.repeat(8_000)}`,
    '/ws/user-events?token=a.b.c',
    '/ws/%ZZ',
    '/ws/DEPTH',
    '/ws/depth/..',
    '/ws',
    '/__proto__',
  ];
  for (const query of queries) {
    tally.handshakes++;
    const outcome = await attempt(wsUrl(base, query));
    const shown = query.replace(jwt, '<jwt>').slice(0, 120);
    if (outcome.kind === 'refused') {
      const problem = problemWith({ status: outcome.status, text: outcome.text });
      if (problem !== undefined) tally.problems.push(`upgrade ${shown}: ${problem}`);
    } else if (outcome.kind === 'open') {
      outcome.socket.close();
    } else if (!/socket hang up|ECONNRESET/.test(outcome.error)) {
      tally.problems.push(`upgrade ${shown}: ${outcome.error}`);
    }
  }
}

/** Opens a stream that must open. */
async function open(base: string, pathAndQuery: string): Promise<WebSocket> {
  const outcome = await attempt(wsUrl(base, pathAndQuery));
  if (outcome.kind !== 'open')
    throw new Error(`the stream ${pathAndQuery.split('?')[0]} did not open: ${JSON.stringify(outcome)}`);
  return outcome.socket;
}

/** Frames of every hostile kind sent on one connection; it may stay open or close with a proper code. */
type Abuse = (socket: WebSocket, maxPayload: number) => number;

/** Abuses the server must end with a given close code (1009: message too big). */
const MUST_CLOSE_WITH: Record<string, number> = {
  'a frame above the payload limit': 1009,
  'a deep JSON frame above the limit': 1009,
  'endless fragments': 1009,
};

const ABUSES: Record<string, Abuse> = {
  'invalid JSON and unknown ops': (socket) => {
    const texts = [
      '{',
      'null',
      '"',
      '{"op":"explode"}',
      '{"type":"subscribe","books":[1e400]}',
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
    ];
    for (const text of texts) socket.send(text);
    return texts.length;
  },
  'subscribe to thousands of books': (socket) => {
    socket.send(JSON.stringify({ op: 'subscribe', books: Array.from({ length: 400 }, (_, i) => i) }));
    socket.send(JSON.stringify({ op: 'subscribe', books: ['99999999999999999999', '__proto__', -1] }));
    return 2;
  },
  'binary frames': (socket) => {
    for (let i = 0; i < 20; i++) socket.send(randomBytes(64), { binary: true });
    return 20;
  },
  'deeply nested JSON under the frame limit': (socket, maxPayload) => {
    const depth = Math.floor(maxPayload / 2) - 2;
    socket.send(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    return 1;
  },
  'a flood of small messages': (socket) => {
    for (let i = 0; i < 2_000; i++) socket.send(`{"op":"ping","n":${i}}`);
    return 2_000;
  },
  'a ping flood': (socket) => {
    for (let i = 0; i < 1_000; i++) socket.ping(Buffer.from(String(i)));
    return 1_000;
  },
  'a frame above the payload limit': (socket, maxPayload) => {
    socket.send('x'.repeat(maxPayload * 4));
    return 1;
  },
  'a deep JSON frame above the limit': (socket, maxPayload) => {
    socket.send(`${'['.repeat(maxPayload)}${']'.repeat(maxPayload)}`);
    return 1;
  },
  'endless fragments': (socket, maxPayload) => {
    const piece = 'y'.repeat(Math.ceil(maxPayload / 8));
    for (let i = 0; i < 16; i++) socket.send(piece, { fin: false });
    return 16;
  },
};

/** Each abuse on a fresh depth and user-events connection; a bystander connection must be served throughout. */
export async function abuseFrames(
  base: string,
  jwt: string,
  maxPayload: number,
  tally: AbuseTally,
  changeDepth: () => Promise<unknown>,
): Promise<void> {
  const bystander = await open(base, `/ws/depth?token=${jwt}&books=1`);
  const seen: string[] = [];
  bystander.on('message', (data: Buffer) => seen.push(data.toString()));
  for (const [name, abuse] of Object.entries(ABUSES)) {
    for (const stream of [`/ws/depth?token=${jwt}&books=1,2`, `/ws/user-events?token=${jwt}`]) {
      const socket = await open(base, stream);
      tally.frames += abuse(socket, maxPayload);
      const expected = MUST_CLOSE_WITH[name];
      const code = await closed(socket, expected === undefined ? 300 : 5_000);
      const where = `${name} on ${stream.split('?')[0]}`;
      if (expected !== undefined && code !== expected)
        tally.problems.push(`${where}: ${code === 'open' ? 'left open' : `closed with ${code}`}, not ${expected}`);
      else if (code !== 'open' && !PROPER_CLOSE_CODES.has(code)) tally.problems.push(`${where}: closed with ${code}`);
      if (code === 'open') socket.terminate();
    }
    if (!(await answersPing(bystander))) tally.problems.push(`the bystander stream went unanswered after ${name}`);
  }
  tally.frames += await rawInvalidFrames(base, jwt, tally);
  // A fresh client is served its welcome after all that (listening from the start: it may come with the 101).
  const fresh = new WebSocket(wsUrl(base, `/ws/depth?token=${jwt}&books=1&welcome=true`), { perMessageDeflate: false });
  const welcome = await new Promise<string>((resolve) => {
    setTimeout(() => resolve('(none within 5 s)'), 5_000).unref();
    fresh.once('message', (data: Buffer) => resolve(data.toString()));
    fresh.once('error', (error) => resolve(String(error)));
  });
  if (!welcome.includes('"WELCOME"')) tally.problems.push(`a fresh stream opened without its welcome: ${welcome.slice(0, 200)}`);
  fresh.close();
  // The bystander is still sent what changes on its book.
  await changeDepth();
  const deadline = Date.now() + 5_000;
  while (!seen.some((text) => text.includes('"DEPTH_DIFF"')) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  if (!seen.some((text) => text.includes('"DEPTH_DIFF"')))
    tally.problems.push('the bystander stream was not sent the depth change after the abuse');
  bystander.close();
}

function answersPing(socket: WebSocket): Promise<boolean> {
  if (socket.readyState !== WebSocket.OPEN) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 3_000);
    socket.once('pong', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.ping();
  });
}

/** Frames no client library writes: unmasked, reserved opcodes and bits, a bad close code, invalid UTF-8; each on its own connection. */
async function rawInvalidFrames(base: string, jwt: string, tally: AbuseTally): Promise<number> {
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = (first: number, payload: Buffer) => {
    const body = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] as number)));
    return Buffer.concat([Buffer.from([first, 0x80 | payload.length]), mask, body]);
  };
  const frames: Record<string, Buffer> = {
    unmasked: Buffer.from([0x81, 0x02, 0x68, 0x69]),
    'reserved opcode': masked(0x83, Buffer.from('hi')),
    'reserved bits': masked(0xf1, Buffer.from('hi')),
    'invalid UTF-8': masked(0x81, Buffer.from([0xc3, 0x28, 0xa0, 0xa1])),
    'bad close code': masked(0x88, Buffer.from([0x03, 0xe7])),
    'fragmented ping': masked(0x09, Buffer.from('p')),
    'continuation first': masked(0x80, Buffer.from('c')),
    'length past 2^63': Buffer.from([0x82, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4]),
  };
  const url = new URL(base);
  for (const [name, frame] of Object.entries(frames)) {
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      const chunks: Buffer[] = [];
      let upgraded = false;
      socket.setTimeout(2_000, () => socket.destroy());
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (!upgraded && Buffer.concat(chunks).includes('\r\n\r\n')) {
          upgraded = true;
          socket.write(frame);
        }
      });
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', () => socket.destroy());
      socket.write(
        `GET /ws/depth?token=${jwt}&books=1 HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    if (!reply.startsWith('HTTP/1.1 101')) tally.problems.push(`raw frame "${name}": the upgrade failed: ${reply.slice(0, 100)}`);
    // The server's close frame (0x88) with 1002 (0x03ea) or 1007 (0x03ef), or a cut connection.
    const close = reply.slice(reply.indexOf('\r\n\r\n') + 4);
    if (close.length > 0 && close.charCodeAt(0) !== 0x88)
      tally.problems.push(`raw frame "${name}": answered ${JSON.stringify(close.slice(0, 40))}`);
  }
  return Object.keys(frames).length;
}
