import type { FastifyBaseLogger } from 'fastify';
import type { OrderDesk } from '../../application/desk/order-desk.js';
import type { ServerEnding, StreamConnection } from './stream-connection.js';

/** What cancel-on-disconnect needs of the desk. */
export type DisconnectDesk = Pick<OrderDesk, 'cancelOpen'>;

/** Code `ws` reports for a connection that ended without a close frame from the peer. */
const ABNORMAL_CLOSURE = 1006;

/**
 * Whether a connection was lost rather than closed: every ending but two counts. A close frame
 * from the client (before the server sent one) is a clean close, and the server's own shutdown
 * is the server's doing. A peer that vanished, a reset, a missed heartbeat, a client dropped for
 * not reading its stream and a client that broke the protocol all leave the account without a
 * view of its orders.
 */
export function isLoss(endedBy: ServerEnding | undefined, code: number): boolean {
  if (endedBy === 'shutdown') return false;
  return endedBy !== undefined || code === ABNORMAL_CLOSURE;
}

/**
 * Cancel-on-disconnect (`cancelOnDisconnect=true` on /ws/user-events): when such a connection is
 * lost, the account's open orders on the connection's books (every book without `books`) are
 * cancelled through POST /cancel's path, reason DISCONNECT, final with the reactor's
 * confirmation. Each connection stands for itself: another connection of the account, with or
 * without the option, changes nothing.
 */
export class DisconnectCancels {
  /** Cancellations asked for and not stored yet. */
  private readonly underWay = new Set<Promise<void>>();

  constructor(
    private readonly desk: DisconnectDesk,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** Called with every connection that ended and the close code `ws` reported. */
  ended(connection: StreamConnection, code: number): void {
    const { account, books, cancelOnDisconnect } = connection.subscription;
    if (!cancelOnDisconnect || !isLoss(connection.endedBy, code)) return;
    const described = { id: connection.id, code, endedBy: connection.endedBy ?? 'peer', account };
    this.logger.info({ stream: described }, 'stream lost: cancelling its open orders');
    const work = this.desk.cancelOpen(account, books, 'DISCONNECT').then(
      (accepted) => this.logger.info({ stream: described, accepted }, 'orders of a lost stream cancelled'),
      (error: unknown) => this.logger.error({ stream: described, err: error }, 'cancelling the orders of a lost stream failed'),
    );
    this.underWay.add(work);
    void work.finally(() => this.underWay.delete(work));
  }

  /** Resolves once every cancellation asked for so far is stored: the service closes after. */
  async settled(): Promise<void> {
    await Promise.all(this.underWay);
  }
}
