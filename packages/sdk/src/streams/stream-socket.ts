import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { NetworkError, SdkError, StreamError } from '../errors.js';
import { apiErrorOf } from '../transport.js';
import { parseStreamMessage, type StreamMessage } from './messages.js';
import type { StreamAddress } from './stream-url.js';

/** How long the handshake may take before the attempt counts as failed. */
const OPEN_TIMEOUT_MS = 10_000;
/**
 * The ping interval assumed of a server that sends no welcome (the real service sends none; ours
 * pings every 30 s by default): a connection silent for twice as long is given up.
 */
const DEFAULT_HEARTBEAT_MS = 30_000;
/** How long a close waits for the server's close frame before dropping the socket. */
const CLOSE_GRACE_MS = 1_000;
const CLOSE_NORMAL = 1000;
/** Largest refusal body read; the server's error bodies are far smaller. */
const MAX_REFUSAL_BYTES = 16_384;

export interface SocketListener {
  /** The handshake succeeded: from now on the server sends every message of the stream. */
  open(): void;
  /** Every message of the stream, in order, after its `seq` was checked; a throw ends the connection with that error. */
  message(message: StreamMessage): void;
  /** Called once when the connection ends for any reason but {@link StreamSocket.close}. */
  end(error: SdkError): void;
}

export interface StreamSocket {
  /** Closes the connection (1000) without calling `end`; resolves once the socket is gone. */
  close(): Promise<void>;
}

/**
 * One WebSocket connection of a stream, on the `ws` package (it lets a refused upgrade be read, so
 * a 401 can be told from a 400). The connection is trusted only while its messages arrive in `seq`
 * order without gaps and while the server keeps pinging: silence for two heartbeat intervals (the
 * WELCOME says how long one is, else {@link DEFAULT_HEARTBEAT_MS}) means a dead peer that TCP may
 * not notice for minutes. The WELCOME, asked for and sent first by servers that have one, is the
 * connection's metadata: it is read here and not handed on.
 */
export function openStreamSocket(address: StreamAddress, listener: SocketListener): StreamSocket {
  const shownUrl = address.shownUrl;
  const socket = new WebSocket(address.url, { perMessageDeflate: false, handshakeTimeout: OPEN_TIMEOUT_MS });
  let ended = false;
  let opened = false;
  let lastSeq = 0;
  let silenceMs = OPEN_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

  const finish = (error: SdkError): void => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    giveUp(socket, error);
    listener.end(error);
  };
  const watch = (): void => {
    clearTimeout(timer);
    timer = setTimeout(
      () => finish(new StreamError('silent', `The stream sent nothing for ${silenceMs} ms`, { details: shownUrl })),
      silenceMs,
    );
  };
  watch();

  socket.on('unexpected-response', (_request, response: IncomingMessage) => {
    // It never rejects: an unreadable refusal is a network error.
    void refusalError(response, shownUrl).then(finish);
  });
  socket.on('open', () => {
    if (ended) return;
    opened = true;
    silenceMs = 2 * DEFAULT_HEARTBEAT_MS;
    watch();
    listener.open();
  });
  socket.on('error', (cause) => {
    finish(
      !opened
        ? new NetworkError(shownUrl, cause)
        : new StreamError('closed', 'The stream connection failed', { cause, details: cause.message }),
    );
  });
  socket.on('close', (code, reason) => {
    const text = reason.toString('utf8');
    finish(new StreamError('closed', `The stream closed with code ${code}`, { closeCode: code, details: text || undefined }));
  });
  socket.on('ping', watch);
  socket.on('message', (data, isBinary) => {
    if (ended) return;
    watch();
    try {
      const message = nextMessage(data, isBinary, lastSeq);
      lastSeq = message.seq;
      if (message.type !== 'WELCOME') {
        listener.message(message);
        return;
      }
      silenceMs = 2 * message.heartbeatMs;
      watch();
    } catch (error) {
      finish(error instanceof SdkError ? error : new SdkError('The stream could not handle a message', { cause: error }));
    }
  });

  return {
    async close() {
      ended = true;
      clearTimeout(timer);
      await closeSocket(socket, closed);
    },
  };
}

/**
 * Ends a connection given up. One that still works (a gap, a malformed message) gets a close
 * frame: the server takes it as a clean close, so cancel-on-disconnect keeps the orders through
 * the resync. A silent one is cut, as a vanished peer would be.
 */
function giveUp(socket: WebSocket, error: SdkError): void {
  const silent = error instanceof StreamError && error.failure === 'silent';
  if (socket.readyState === WebSocket.OPEN && !silent) socket.close(CLOSE_NORMAL);
  else socket.terminate();
}

/** Closes the socket (1000); a close frame sent (here or on giving up) waits a moment for the server's answer. */
async function closeSocket(socket: WebSocket, closed: Promise<void>): Promise<void> {
  if (socket.readyState === WebSocket.OPEN) socket.close(CLOSE_NORMAL);
  const grace = socket.readyState === WebSocket.CLOSING ? CLOSE_GRACE_MS : 0;
  const cut = setTimeout(() => socket.terminate(), grace);
  await closed;
  clearTimeout(cut);
}

/** The frame as the message after `lastSeq`; a binary frame, a malformed message or a skipped `seq` throws. */
function nextMessage(data: WebSocket.RawData, isBinary: boolean, lastSeq: number): StreamMessage {
  if (isBinary) throw new StreamError('malformed', 'The stream sent a binary frame');
  const message = parseStreamMessage(data.toString()) as StreamMessage;
  if (message.seq !== lastSeq + 1) {
    throw new StreamError('seq-gap', `Stream message ${lastSeq + 1} was lost`, { details: `got seq ${message.seq} next` });
  }
  return message;
}

/** A refused upgrade as the API error its body names (a 401 told from a 400), or a network error if it cannot be read. */
async function refusalError(response: IncomingMessage, shownUrl: string): Promise<SdkError> {
  let text: string;
  try {
    text = await readRefusal(response);
  } catch (cause) {
    return new NetworkError(shownUrl, cause);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
  const answer = new Response(text, { status: response.statusCode ?? 500, headers });
  return apiErrorOf(answer, text, headers.get('x-request-id') ?? undefined, shownUrl);
}

function readRefusal(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REFUSAL_BYTES) chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}
