import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AccessTokens } from '../../application/auth/access-tokens.js';
import type { DeskEvents } from '../../application/desk/desk-events.js';
import type { MarketRegistry } from '../../application/markets/market-registry.js';
import { AppError } from '../../domain/errors.js';
import type { Metrics } from '../../ports/metrics.js';
import { toAppError } from '../http/error-handler.js';
import { redactUrl } from '../redact-url.js';
import { ConnectionSlots } from './bounds.js';
import { type ConnectionMetadata, metadataHeaders, welcomeBody } from './connection-metadata.js';
import { DepthChannel } from './depth-channel.js';
import { DisconnectCancels, type DisconnectDesk } from './disconnect-cancels.js';
import { authorizeStream, clientAddress, type HandshakeRules, refuseUpgrade, requestUrl, type StreamGrant } from './handshake.js';
import { CLOSE_GOING_AWAY, encodeBody, STREAM_PATHS, type StreamName } from './protocol.js';
import { StreamConnection, type StreamSubscription } from './stream-connection.js';
import type { StreamLimits } from './stream-limits.js';
import { UserChannel } from './user-channel.js';

export interface StreamDeps {
  readonly limits: StreamLimits;
  readonly trustProxy: boolean;
  readonly tokens: AccessTokens;
  readonly registry: MarketRegistry;
  readonly deskEvents: DeskEvents;
  /** Cancels the orders of a lost connection that asked for it (cancelOnDisconnect). */
  readonly desk: DisconnectDesk;
  readonly logger: FastifyBaseLogger;
  /** Where open streams, messages sent and slow consumers dropped are counted. */
  readonly metrics: Metrics;
}

/** How long a shutdown waits for clients to answer the close frame before cutting them off. */
const CLOSE_GRACE_MS = 1_000;

/**
 * The WebSocket streams on the REST API's port: authenticates upgrades, keeps the connections
 * within their bounds, heartbeats them, and fans the desk's stored changes out to the depth and
 * user-event channels.
 */
export class StreamGateway {
  private readonly server: WebSocketServer;
  private readonly connections = new Set<StreamConnection>();
  private readonly slots: ConnectionSlots;
  private readonly depth: DepthChannel;
  private readonly users: UserChannel;
  private readonly cancels: DisconnectCancels;
  private readonly rules: HandshakeRules;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  /** The metadata headers of each upgrade under way, added to its 101 answer. */
  private readonly upgradeHeaders = new WeakMap<IncomingMessage, string[]>();
  private closing = false;

  constructor(private readonly deps: StreamDeps) {
    const { limits, registry } = deps;
    this.server = new WebSocketServer({
      noServer: true,
      maxPayload: limits.maxPayloadBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.server.on('headers', (headers: string[], request: IncomingMessage) => {
      headers.push(...(this.upgradeHeaders.get(request) ?? []));
      this.upgradeHeaders.delete(request);
    });
    this.slots = new ConnectionSlots(limits.maxConnections, limits.maxConnectionsPerIp);
    this.depth = new DepthChannel(registry, deps.metrics);
    this.users = new UserChannel(registry, deps.metrics);
    this.cancels = new DisconnectCancels(deps.desk, deps.logger);
    this.rules = { tokens: deps.tokens, registry, maxBooks: limits.maxBooksPerConnection };
    this.unsubscribe = deps.deskEvents.subscribe((commit) => {
      if (this.connections.size === 0) return;
      this.depth.publish(commit);
      this.users.publish(commit);
    });
    this.heartbeat = setInterval(() => this.beat(), limits.heartbeatMs);
    this.heartbeat.unref();
  }

  /** The HTTP server's `upgrade` listener. */
  readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = requestUrl(request);
    const stream = url === undefined ? undefined : STREAM_PATHS.get(url.pathname);
    const ip = clientAddress(request, this.deps.trustProxy);
    const logged = { url: redactUrl(request.url ?? ''), remoteAddress: ip };
    // The socket is ours from here on (ws adds its own listener once it takes over); a peer that
    // resets it must never take the process down.
    socket.on('error', (error) => this.deps.logger.debug({ stream: logged, err: error }, 'stream socket error'));
    if (url === undefined || stream === undefined) {
      this.refuse(
        socket,
        new AppError('NOT_FOUND', 'No WebSocket stream at this path; use /ws/depth or /ws/user-events'),
        logged,
      );
      return;
    }
    if (this.closing) {
      this.refuse(socket, new AppError('SHUTTING_DOWN'), logged);
      return;
    }
    try {
      this.slots.acquire(ip);
    } catch (error) {
      this.refuse(socket, toAppError(error), logged);
      return;
    }
    // One release for every way the socket ends: refused, a handshake ws rejects, or closed.
    socket.once('close', () => this.slots.release(ip));
    authorizeStream(url, stream, this.rules).then(
      (grant) => {
        if (this.closing) {
          this.refuse(socket, new AppError('SHUTTING_DOWN'), logged);
          return;
        }
        if (socket.destroyed) return;
        const { subscription, metadata } = this.describe(grant, stream, ip);
        this.upgradeHeaders.set(request, metadataHeaders(metadata));
        this.server.handleUpgrade(request, socket, head, (ws) =>
          this.open(ws, socket, subscription, metadata, grant.welcome, logged),
        );
      },
      (error: unknown) => this.refuse(socket, toAppError(error), logged),
    );
  };

  /**
   * Closes every stream with 1001 and stops following the desk; clients that do not answer are cut
   * off. A shutdown cancels no orders; cancellations of connections lost before it are stored first.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.heartbeat);
    this.unsubscribe();
    const open = [...this.connections];
    const closed = open.map((connection) => new Promise<void>((resolve) => connection.socket.once('close', () => resolve())));
    for (const connection of open) {
      connection.endedBy = 'shutdown';
      connection.socket.close(CLOSE_GOING_AWAY, 'server shutting down');
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_GRACE_MS);
    });
    await Promise.race([Promise.all(closed), late]);
    clearTimeout(timer);
    for (const connection of this.connections) connection.socket.terminate();
    this.server.close();
    await this.cancels.settled();
  }

  /** What the handshake established: the connection's subscription, and its metadata for the client. */
  private describe(
    grant: StreamGrant,
    stream: StreamName,
    ip: string,
  ): { subscription: StreamSubscription; metadata: ConnectionMetadata } {
    const { account, books, cancelOnDisconnect } = grant;
    return {
      subscription: { stream, account, books: books === null ? null : new Set(books), ip, cancelOnDisconnect },
      metadata: {
        connectionId: randomUUID(),
        stream,
        account,
        // A copy: the message's shape is the protocol's, whose arrays are not read-only.
        books: books === null ? null : [...books],
        heartbeatMs: this.deps.limits.heartbeatMs,
        cancelOnDisconnect,
      },
    };
  }

  /** `wire`: the socket `ws` took over, which the connection writes its frames to. */
  private open(
    socket: WebSocket,
    wire: Duplex,
    subscription: StreamSubscription,
    metadata: ConnectionMetadata,
    welcome: boolean,
    logged: { url: string; remoteAddress: string },
  ): void {
    const { sendBufferBytes } = this.deps.limits;
    const { metrics } = this.deps;
    const connection = new StreamConnection(metadata.connectionId, socket, wire, subscription, sendBufferBytes, (slow) =>
      this.drop(slow),
    );
    const { books } = metadata;
    this.connections.add(connection);
    metrics.streamConnections(subscription.stream, 1);
    if (subscription.stream === 'depth') this.depth.add(connection, books ?? []);
    else this.users.add(connection);
    const described = { id: connection.id, kind: subscription.stream, account: subscription.account, books, ...logged };

    socket.on('pong', () => {
      connection.alive = true;
    });
    // ws closes the connection itself (1009 for an oversized frame, 1002 for a protocol error); log why.
    socket.on('error', (error) => {
      connection.endedBy ??= 'protocol-error';
      this.deps.logger.info({ stream: described, err: error }, 'stream error');
    });
    socket.on('close', (code) => {
      this.connections.delete(connection);
      metrics.streamConnections(subscription.stream, -1);
      if (subscription.stream === 'depth') this.depth.remove(connection, books ?? []);
      else this.users.remove(connection);
      this.deps.logger.info({ stream: { id: connection.id, code, endedBy: connection.endedBy } }, 'stream closed');
      this.cancels.ended(connection, code);
    });
    // Nothing is published between the upgrade and here, so the welcome is the first message.
    if (welcome && connection.send(encodeBody(welcomeBody(metadata)))) metrics.streamMessagesSent(subscription.stream, 1);
    this.deps.logger.info({ stream: described }, 'stream opened');
  }

  private refuse(socket: Duplex, error: AppError, logged: { url: string; remoteAddress: string }): void {
    if (error.code === 'INTERNAL')
      this.deps.logger.error({ stream: logged, err: error.cause ?? error }, 'stream handshake failed');
    this.deps.logger.info({ stream: logged, code: error.code }, `stream refused: ${error.message}`);
    refuseUpgrade(socket, error);
  }

  /** A client that let its unsent data pass the cap: cut off at once, since a close frame would queue behind that data. */
  private drop(connection: StreamConnection): void {
    this.deps.logger.warn(
      { stream: { id: connection.id, bufferedBytes: connection.socket.bufferedAmount } },
      'slow stream consumer disconnected',
    );
    if (connection.endedBy === undefined) this.deps.metrics.slowConsumerDropped(connection.subscription.stream);
    connection.endedBy ??= 'slow-consumer';
    connection.socket.terminate();
  }

  private beat(): void {
    for (const connection of this.connections) {
      if (!connection.alive) {
        this.deps.logger.info({ stream: { id: connection.id } }, 'stream peer did not answer the heartbeat; closing it');
        connection.endedBy ??= 'heartbeat';
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }
}

/** Serves the streams on the app's HTTP server and closes them before the server stops. */
export function installStreams(app: FastifyInstance, deps: StreamDeps): void {
  const gateway = new StreamGateway(deps);
  app.server.on('upgrade', gateway.onUpgrade);
  app.addHook('preClose', () => gateway.close());
}
