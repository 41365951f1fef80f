import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { startRewritingProxy } from './server.js';

/** What a proxy does with one message from the server: pass it, drop it, or drop it and hide the loss from `seq`. */
export type FrameVerdict = 'pass' | 'drop' | 'drop-and-renumber';

/**
 * A real proxy on loopback in front of a test server, for HTTP and for the WebSocket streams: a
 * stand-in for a network or server that loses messages, goes silent, cuts connections or refuses
 * them, which a real server on a healthy loopback never does on cue.
 */
export interface StreamProxy {
  /** Base URL to give a client: its requests and streams reach the server through the proxy. */
  readonly url: string;
  /** The query of every stream request, in order (`token` included: tests compare tokens, never print them). */
  readonly upgrades: URLSearchParams[];
  /** Decides the fate of each server message of every connection from now on (`pass` by default). */
  filter(verdict: (message: { type: string; seq: number }) => FrameVerdict): void;
  /** Stops forwarding anything, heartbeat pings included, on the connections open now. */
  silence(): void;
  /** Drops every open stream connection without a close frame (the client sees 1006, and so does the server). */
  cut(): void;
  /** Answers new stream requests with this status (`undefined`: forward them again). */
  refuseWith(status: number | undefined): void;
  /** Resolves when `count` stream connections have been opened through the proxy in all (refused ones do not count). */
  connections(count: number): Promise<void>;
  close(): Promise<void>;
}

interface Link {
  readonly downstream: WebSocket;
  readonly upstream: WebSocket;
  silent: boolean;
  /** Messages hidden from `seq` so far: later ones are numbered down by as many. */
  hidden: number;
}

export async function startStreamProxy(target: string): Promise<StreamProxy> {
  const http = await startRewritingProxy(target, (_path, body) => body);
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const links = new Set<Link>();
  const upgrades: URLSearchParams[] = [];
  const waiting = new Set<{ count: number; resolve: () => void }>();
  let verdict: (message: { type: string; seq: number }) => FrameVerdict = () => 'pass';
  let refusal: number | undefined;
  let opened = 0;

  const refuse = (socket: Duplex, status: number, body: string): void => {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  const link = (request: IncomingMessage, socket: Duplex, head: Buffer, upstream: WebSocket): void => {
    sockets.handleUpgrade(request, socket, head, (downstream) => {
      const current: Link = { downstream, upstream, silent: false, hidden: 0 };
      links.add(current);
      opened++;
      for (const waiter of waiting) {
        if (opened >= waiter.count) {
          waiting.delete(waiter);
          waiter.resolve();
        }
      }
      upstream.on('message', (data: Buffer) => {
        if (current.silent) return;
        const message = JSON.parse(data.toString('utf8')) as { type: string; seq: number };
        const fate = verdict(message);
        if (fate !== 'pass') {
          if (fate === 'drop-and-renumber') current.hidden++;
          return;
        }
        downstream.send(
          current.hidden === 0 ? data.toString('utf8') : JSON.stringify({ ...message, seq: message.seq - current.hidden }),
        );
      });
      upstream.on('ping', () => {
        if (!current.silent) downstream.ping();
      });
      upstream.on('close', (code) => {
        if (code === 1005 || code === 1006) downstream.terminate();
        else downstream.close(code);
      });
      // A client's clean close reaches the server as one; a connection cut reaches it cut.
      downstream.on('close', (code) => {
        links.delete(current);
        if (code === 1006) upstream.terminate();
        else upstream.close(code === 1005 ? undefined : code);
      });
      downstream.on('error', () => upstream.terminate());
    });
  };

  http.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgrades.push(new URL(request.url ?? '/', 'http://proxy.invalid').searchParams);
    if (refusal !== undefined) {
      refuse(socket, refusal, JSON.stringify({ error: 'Refused by the test proxy', code: 'PROXY_REFUSED' }));
      return;
    }
    const upstream = new WebSocket(`${target.replace(/^http/, 'ws')}${request.url ?? '/'}`, { perMessageDeflate: false });
    upstream.once('open', () => link(request, socket, head, upstream));
    upstream.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        refuse(socket, response.statusCode ?? 502, Buffer.concat(chunks).toString('utf8'));
        upstream.terminate();
      });
    });
    upstream.on('error', () => {
      if (!socket.writableEnded) socket.destroy();
    });
  });

  return {
    url: http.url,
    upgrades,
    filter: (next) => {
      verdict = next;
    },
    silence: () => {
      for (const current of links) current.silent = true;
    },
    cut: () => {
      for (const current of links) current.downstream.terminate();
    },
    refuseWith: (status) => {
      refusal = status;
    },
    connections: (count) =>
      opened >= count
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiting.add({ count, resolve });
          }),
    close: async () => {
      for (const current of links) {
        current.downstream.terminate();
        current.upstream.terminate();
      }
      sockets.close();
      http.server.closeAllConnections();
      await http.close();
    },
  };
}
