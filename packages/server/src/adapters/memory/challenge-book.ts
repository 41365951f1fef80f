import { newLoginNonce } from '../../domain/accounts/login-nonce.js';
import { AppError } from '../../domain/errors.js';
import { BOOK_FULL, type Challenge, type ChallengeBounds, type LoginChallenges } from '../../ports/login-challenges.js';

export type { Challenge } from '../../ports/login-challenges.js';

interface Entry {
  readonly account: string;
  readonly requester: string;
  readonly challenge: Challenge;
}

/**
 * Login challenges, kept in this process's memory: single-use (consumed by the verify that answers
 * it) and short-lived, within the bounds of {@link ChallengeBounds}. Every challenge lives equally
 * long, so issue order is expiry order: the maps keep that order and expired challenges are always
 * at their front.
 */
export class ChallengeBook implements LoginChallenges {
  private readonly byNonce = new Map<string, Entry>();
  private readonly byAccount = new Map<string, string[]>();
  private readonly byRequester = new Map<string, string[]>();

  constructor(private readonly bounds: ChallengeBounds) {}

  issue(account: string, requester: string, now: number, compose: (nonce: string, expiresAt: number) => string): Challenge {
    this.dropExpired(now);
    const mine = this.byRequester.get(requester) ?? [];
    // The requester's own oldest makes room, for its bound or in a full book; nobody else's does.
    if (mine.length >= this.bounds.perRequester || (mine.length > 0 && this.byNonce.size >= this.bounds.total)) {
      this.remove(mine[0] as string);
    }
    if (this.byNonce.size >= this.bounds.total) {
      throw new AppError('RATE_LIMITED', BOOK_FULL);
    }
    const ofAccount = this.byAccount.get(account) ?? [];
    if (ofAccount.length >= this.bounds.perAccount) this.remove(this.pushedOut(ofAccount, requester));
    const expiresAt = now + this.bounds.ttlMs;
    const nonce = newLoginNonce();
    const challenge = { nonce, message: compose(nonce, expiresAt), expiresAt };
    this.byNonce.set(nonce, { account, requester, challenge });
    this.append(this.byAccount, account, nonce);
    this.append(this.byRequester, requester, nonce);
    return challenge;
  }

  /** The account's challenges that can still be answered, oldest first (a copy). */
  pending(account: string, now: number): Challenge[] {
    this.dropExpired(now);
    return (this.byAccount.get(account) ?? []).flatMap((nonce) => this.byNonce.get(nonce)?.challenge ?? []);
  }

  /** Consumes a challenge of the account; false when it was already used, pushed out or expired. */
  consume(account: string, nonce: string, now: number): boolean {
    this.dropExpired(now);
    if (this.byNonce.get(nonce)?.account !== account) return false;
    this.remove(nonce);
    return true;
  }

  get size(): number {
    return this.byNonce.size;
  }

  /**
   * Which of a full account's challenges a new one from `requester` pushes out: the oldest of the
   * requester that holds the most of them, the asker counted with its new one. So a client that
   * asked once loses its challenge only when as many other addresses as the bound each hold one.
   */
  private pushedOut(nonces: readonly string[], requester: string): string {
    const held = new Map<string, number>([[requester, 1]]);
    for (const nonce of nonces) {
      const owner = this.byNonce.get(nonce)?.requester as string;
      held.set(owner, (held.get(owner) ?? 0) + 1);
    }
    const most = Math.max(...held.values());
    // Oldest first: the first challenge whose owner holds the most (the asker's own when it alone does).
    return nonces.find((nonce) => held.get(this.byNonce.get(nonce)?.requester as string) === most) as string;
  }

  private append(index: Map<string, string[]>, key: string, nonce: string): void {
    const nonces = index.get(key) ?? [];
    nonces.push(nonce);
    index.set(key, nonces);
  }

  private dropExpired(now: number): void {
    for (const [nonce, entry] of this.byNonce) {
      if (entry.challenge.expiresAt > now) return;
      this.remove(nonce);
    }
  }

  private remove(nonce: string): void {
    const entry = this.byNonce.get(nonce);
    if (entry === undefined) return;
    this.byNonce.delete(nonce);
    this.detach(this.byAccount, entry.account, nonce);
    this.detach(this.byRequester, entry.requester, nonce);
  }

  private detach(index: Map<string, string[]>, key: string, nonce: string): void {
    const nonces = (index.get(key) ?? []).filter((candidate) => candidate !== nonce);
    if (nonces.length === 0) index.delete(key);
    else index.set(key, nonces);
  }
}
