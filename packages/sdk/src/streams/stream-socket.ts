import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { NetworkError, SdkError, StreamError } from '../errors.js';
import { apiErrorOf } from '../transport.js';
import { parseStreamMessage, type StreamMessage } from './messages.js';
import type { StreamAddress } from './stream-url.js';

/** How long the handshake and then the welcome may take before the attempt counts as failed. */
const OPEN_TIMEOUT_MS = 10_000;
/** How long a close waits for the server's close frame before dropping the socket. */
const CLOSE_GRACE_MS = 1_000;
/** Largest refusal body read; the server's error bodies are far smaller. */
const MAX_REFUSAL_BYTES = 16_384;

export interface SocketListener {
  /** Every message, in order, after its `seq` was checked; a throw ends the connection with that error. */
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
 * welcome says how long one is) means a dead peer that TCP may not notice for minutes.
 */
export function openStreamSocket(address: StreamAddress, listener: SocketListener): StreamSocket {
  const shownUrl = address.shownUrl;
  const socket = new WebSocket(address.url, { perMessageDeflate: false, handshakeTimeout: OPEN_TIMEOUT_MS });
  let ended = false;
  let lastSeq = 0;
  let silenceMs = OPEN_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

  const finish = (error: SdkError | undefined): void => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    socket.terminate();
    if (error !== undefined) listener.end(error);
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
    readRefusal(response).then(
      (text) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
        const answer = new Response(text, { status: response.statusCode ?? 500, headers });
        finish(apiErrorOf(answer, text, headers.get('x-request-id') ?? undefined, shownUrl));
      },
      (cause: unknown) => finish(new NetworkError(shownUrl, cause)),
    );
  });
  socket.on('error', (cause) => {
    finish(
      socket.readyState === WebSocket.CONNECTING || lastSeq === 0
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
      if (isBinary) throw new StreamError('malformed', 'The stream sent a binary frame');
      const message = parseStreamMessage(data.toString()) as StreamMessage;
      if (message.seq !== lastSeq + 1) {
        throw new StreamError('seq-gap', `Stream message ${lastSeq + 1} was lost`, { details: `got seq ${message.seq} next` });
      }
      lastSeq = message.seq;
      if (message.type === 'WELCOME') {
        silenceMs = 2 * message.heartbeatMs;
        watch();
      }
      listener.message(message);
    } catch (error) {
      finish(error instanceof SdkError ? error : new SdkError('The stream could not handle a message', { cause: error }));
    }
  });

  return {
    async close() {
      const wasEnded = ended;
      ended = true;
      clearTimeout(timer);
      if (!wasEnded && socket.readyState === WebSocket.OPEN) {
        socket.close(1000);
        const grace = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
        await closed;
        clearTimeout(grace);
        return;
      }
      socket.terminate();
      await closed;
    },
  };
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
