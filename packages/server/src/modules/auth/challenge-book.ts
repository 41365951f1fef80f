import { randomBytes } from 'node:crypto';

/** An outstanding login challenge: the exact text the wallet must sign. */
export interface Challenge {
  readonly nonce: string;
  readonly message: string;
  readonly expiresAt: number;
}

export interface ChallengeBookOptions {
  /** How long a challenge can be answered. */
  readonly ttlMs: number;
  /** Open challenges kept per account; a new one pushes out the oldest. */
  readonly perAccount: number;
  /** Open challenges kept in all; bounds memory against floods of challenge requests. */
  readonly total: number;
}

/**
 * Login challenges, kept in memory: single-use (consumed by the verify that answers it) and
 * short-lived. Bounded per account and in total, evicting the oldest first.
 */
export class ChallengeBook {
  private readonly open = new Map<string, Challenge[]>();
  private count = 0;

  constructor(private readonly options: ChallengeBookOptions) {}

  /** Opens a challenge; `compose` writes the message around a fresh nonce and the expiry time. */
  issue(account: string, now: number, compose: (nonce: string, expiresAt: number) => string): Challenge {
    const expiresAt = now + this.options.ttlMs;
    const nonce = randomBytes(16).toString('base64url');
    const challenge = { nonce, message: compose(nonce, expiresAt), expiresAt };
    const list = this.live(account, now);
    list.push(challenge);
    this.count++;
    // Re-insert so the Map's order is the order accounts were last challenged.
    this.open.delete(account);
    this.open.set(account, list);
    if (list.length > this.options.perAccount) {
      list.shift();
      this.count--;
    }
    while (this.count > this.options.total) this.evictOldest();
    return challenge;
  }

  /** The account's challenges that can still be answered. */
  pending(account: string, now: number): readonly Challenge[] {
    return this.open.has(account) ? this.live(account, now) : [];
  }

  /** Consumes a challenge; false when it was already used, evicted or expired. */
  consume(account: string, nonce: string, now: number): boolean {
    const list = this.open.has(account) ? this.live(account, now) : [];
    const index = list.findIndex((challenge) => challenge.nonce === nonce);
    if (index < 0) return false;
    list.splice(index, 1);
    this.count--;
    if (list.length === 0) this.open.delete(account);
    return true;
  }

  get size(): number {
    return this.count;
  }

  /** The account's list with expired challenges dropped. */
  private live(account: string, now: number): Challenge[] {
    const list = this.open.get(account) ?? [];
    const kept = list.filter((challenge) => challenge.expiresAt > now);
    this.count -= list.length - kept.length;
    if (kept.length === 0) this.open.delete(account);
    else this.open.set(account, kept);
    return kept;
  }

  private evictOldest(): void {
    const first = this.open.entries().next();
    if (first.done) return;
    const [account, list] = first.value;
    list.shift();
    this.count--;
    if (list.length === 0) this.open.delete(account);
  }
}
