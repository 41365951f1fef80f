import { openTransport } from '#stream-transport';
import { NetworkError, SdkError, StreamError } from '../errors.js';
import { type OtherMessage, parseStreamMessage, type StreamMessage } from './messages.js';
import { HANDSHAKE_TIMEOUT_MS, type SocketTransport } from './socket-transport.js';
import type { StreamAddress } from './stream-url.js';

/**
 * The ping interval assumed of a server that sends no welcome (the real service sends none; ours
 * pings every 30 s by default): a connection silent for twice as long is given up.
 */
const DEFAULT_HEARTBEAT_MS = 30_000;
/** How long a close waits for the server's close frame before dropping the socket. */
const CLOSE_GRACE_MS = 1_000;
const CLOSE_NORMAL = 1000;

export interface SocketListener {
  /** The handshake succeeded: from now on the server sends every message of the stream. */
  open(): void;
  /** Every message of the stream, in order, after its `seq` (if any) was checked; a throw ends the connection with that error. */
  message(message: StreamMessage | OtherMessage): void;
  /** Called once when the connection ends for any reason but {@link StreamSocket.close}. */
  end(error: SdkError): void;
}

export interface StreamSocket {
  /** Closes the connection (1000) without calling `end`; resolves once the socket is gone. */
  close(): Promise<void>;
}

/**
 * One WebSocket connection of a stream, on the platform's transport (`#stream-transport`). The
 * connection is trusted only while its messages arrive in `seq` order without gaps (a server that
 * numbers them, as this service does; the live service does not, and its streams' own ids tell a
 * loss) and while the server keeps pinging: silence for two heartbeat intervals (the WELCOME says how long one is, else
 * {@link DEFAULT_HEARTBEAT_MS}) means a dead peer that TCP may not notice for minutes. A transport
 * that cannot see pings (a browser's) is watched only until the handshake completes. The WELCOME,
 * asked for and sent first by servers that have one, is the connection's metadata: it is read here
 * and not handed on.
 */
export function openStreamSocket(address: StreamAddress, listener: SocketListener): StreamSocket {
  const shownUrl = address.shownUrl;
  let ended = false;
  let opened = false;
  let lastSeq = 0;
  let silenceMs = HANDSHAKE_TIMEOUT_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const finish = (error: SdkError): void => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    giveUp(transport, error);
    listener.end(error);
  };
  const watch = (): void => {
    clearTimeout(timer);
    if (opened && !transport.seesPings) return;
    timer = setTimeout(
      () => finish(new StreamError('silent', `The stream sent nothing for ${silenceMs} ms`, { details: shownUrl })),
      silenceMs,
    );
  };

  const transport: SocketTransport = openTransport(address, {
    refused: finish,
    open: () => {
      if (ended) return;
      opened = true;
      silenceMs = 2 * DEFAULT_HEARTBEAT_MS;
      watch();
      listener.open();
    },
    error: (cause) => {
      finish(
        !opened
          ? new NetworkError(shownUrl, cause)
          : new StreamError('closed', 'The stream connection failed', { cause, details: cause.message }),
      );
    },
    close: (code, reason) => {
      finish(new StreamError('closed', `The stream closed with code ${code}`, { closeCode: code, details: reason || undefined }));
    },
    ping: watch,
    message: (text) => {
      if (ended) return;
      watch();
      try {
        const message = nextMessage(text, lastSeq);
        lastSeq = message.seq ?? lastSeq;
        if (message.type !== 'WELCOME' || !('heartbeatMs' in message)) {
          listener.message(message);
          return;
        }
        silenceMs = 2 * message.heartbeatMs;
        watch();
      } catch (error) {
        finish(error instanceof SdkError ? error : new SdkError('The stream could not handle a message', { cause: error }));
      }
    },
  });
  watch();

  return {
    async close() {
      ended = true;
      clearTimeout(timer);
      await closeSocket(transport);
    },
  };
}

/**
 * Ends a connection given up. One that still works (a gap, a malformed message) gets a close
 * frame: the server takes it as a clean close, so cancel-on-disconnect keeps the orders through
 * the resync. A silent one is cut, as a vanished peer would be.
 */
function giveUp(transport: SocketTransport, error: SdkError): void {
  const silent = error instanceof StreamError && error.failure === 'silent';
  if (transport.state === 'open' && !silent) transport.close(CLOSE_NORMAL);
  else transport.terminate();
}

/** Closes the socket (1000); a close frame sent (here or on giving up) waits a moment for the server's answer. */
async function closeSocket(transport: SocketTransport): Promise<void> {
  if (transport.state === 'open') transport.close(CLOSE_NORMAL);
  const grace = transport.state === 'closing' ? CLOSE_GRACE_MS : 0;
  const cut = setTimeout(() => transport.terminate(), grace);
  await transport.closed;
  clearTimeout(cut);
}

/** The frame as the message after `lastSeq`; a binary frame, a malformed message or a skipped `seq` throws. */
function nextMessage(text: string | undefined, lastSeq: number): StreamMessage | OtherMessage {
  if (text === undefined) throw new StreamError('malformed', 'The stream sent a binary frame');
  const message = parseStreamMessage(text);
  if (message.seq !== undefined && message.seq !== lastSeq + 1) {
    throw new StreamError('seq-gap', `Stream message ${lastSeq + 1} was lost`, { details: `got seq ${message.seq} next` });
  }
  return message;
}
