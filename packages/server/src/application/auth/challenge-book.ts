import { newLoginNonce } from '../../domain/accounts/login-nonce.js';
import type { Challenge, LoginChallenges } from '../../ports/login-challenges.js';

export type { Challenge } from '../../ports/login-challenges.js';

export interface ChallengeBookOptions {
  /** How long a challenge can be answered. */
  readonly ttlMs: number;
  /** Open challenges kept per account; a new one pushes out the account's oldest. */
  readonly perAccount: number;
  /** Open challenges kept in all; bounds memory against floods of challenge requests. */
  readonly total: number;
}

interface Entry {
  readonly account: string;
  readonly challenge: Challenge;
}

/**
 * Login challenges, kept in this process's memory: single-use (consumed by the verify that answers it) and
 * short-lived. Every challenge lives equally long, so issue order is expiry order: the global map
 * keeps that order, expired challenges are always at its front, and when the total bound is hit
 * the challenge that would expire first is the one evicted.
 */
export class ChallengeBook implements LoginChallenges {
  private readonly byNonce = new Map<string, Entry>();
  private readonly byAccount = new Map<string, string[]>();

  constructor(private readonly options: ChallengeBookOptions) {}

  /** Opens a challenge; `compose` writes the message around a fresh nonce and the expiry time. */
  issue(account: string, now: number, compose: (nonce: string, expiresAt: number) => string): Challenge {
    this.dropExpired(now);
    const expiresAt = now + this.options.ttlMs;
    const nonce = newLoginNonce();
    const challenge = { nonce, message: compose(nonce, expiresAt), expiresAt };
    this.byNonce.set(nonce, { account, challenge });
    const nonces = this.byAccount.get(account) ?? [];
    nonces.push(nonce);
    this.byAccount.set(account, nonces);
    if (nonces.length > this.options.perAccount) this.remove(nonces[0] as string);
    while (this.byNonce.size > this.options.total) this.remove(this.byNonce.keys().next().value as string);
    return challenge;
  }

  /** The account's challenges that can still be answered, oldest first (a copy). */
  pending(account: string, now: number): Challenge[] {
    this.dropExpired(now);
    return (this.byAccount.get(account) ?? []).flatMap((nonce) => this.byNonce.get(nonce)?.challenge ?? []);
  }

  /** Consumes a challenge of the account; false when it was already used, evicted or expired. */
  consume(account: string, nonce: string, now: number): boolean {
    this.dropExpired(now);
    if (this.byNonce.get(nonce)?.account !== account) return false;
    this.remove(nonce);
    return true;
  }

  get size(): number {
    return this.byNonce.size;
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
    const nonces = (this.byAccount.get(entry.account) ?? []).filter((candidate) => candidate !== nonce);
    if (nonces.length === 0) this.byAccount.delete(entry.account);
    else this.byAccount.set(entry.account, nonces);
  }
}
