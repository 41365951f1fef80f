import { AppError } from '../../domain/errors.js';

/**
 * Connection slots: at most `maxTotal` open streams and `maxPerIp` from one client address. A slot
 * is taken before the handshake's token check and given back when the upgrade is refused or the
 * connection closes, so a client cannot pass the limit with handshakes in flight.
 */
export class ConnectionSlots {
  private readonly perIp = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerIp: number,
  ) {}

  /** Takes a slot for the address, or throws TOO_MANY_CONNECTIONS. */
  acquire(ip: string): void {
    const held = this.perIp.get(ip) ?? 0;
    if (held >= this.maxPerIp) {
      throw new AppError('TOO_MANY_CONNECTIONS', `At most ${this.maxPerIp} WebSocket connections per client address`);
    }
    if (this.total >= this.maxTotal) throw new AppError('TOO_MANY_CONNECTIONS');
    this.perIp.set(ip, held + 1);
    this.total++;
  }

  release(ip: string): void {
    const held = this.perIp.get(ip) ?? 0;
    if (held <= 0) return;
    if (held === 1) this.perIp.delete(ip);
    else this.perIp.set(ip, held - 1);
    this.total--;
  }
}
