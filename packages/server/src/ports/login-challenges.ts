/** An outstanding login challenge: the exact text the wallet must sign. */
export interface Challenge {
  readonly nonce: string;
  readonly message: string;
  readonly expiresAt: number;
}

/** Why a challenge is refused when `total` are open. */
export const BOOK_FULL = 'Too many logins are under way: retry in a minute';

/**
 * How many challenges stay open, so that nobody can push out another's: a requester (a client
 * address) keeps at most `perRequester`, its own oldest going first; an account at most
 * `perAccount`, a new one pushing out the oldest of whichever requester holds the most of them
 * (the asker counted with its new one), so a client that asked once loses its challenge only when
 * as many other addresses as the bound each hold one; and `total` in all, past which a requester's
 * own oldest makes room for its new one, and one that holds none is refused (429).
 */
export interface ChallengeBounds {
  /** How long a challenge can be answered. */
  readonly ttlMs: number;
  readonly perAccount: number;
  readonly perRequester: number;
  readonly total: number;
}

/**
 * Login challenges: single-use (consumed by the verify that answers one) and short-lived, within
 * {@link ChallengeBounds}. Kept in one process, or in Redis, where a challenge issued by one
 * gateway is answered at another.
 */
export interface LoginChallenges {
  /**
   * Opens a challenge of `account` for `requester` (the asking client's address); `compose` writes
   * the message around a fresh nonce and the expiry time. Throws RATE_LIMITED when `total` are open.
   */
  issue(
    account: string,
    requester: string,
    now: number,
    compose: (nonce: string, expiresAt: number) => string,
  ): Challenge | Promise<Challenge>;
  /** The account's challenges that can still be answered, oldest first. */
  pending(account: string, now: number): readonly Challenge[] | Promise<readonly Challenge[]>;
  /** Consumes a challenge of the account; false when it was already used, pushed out or expired. */
  consume(account: string, nonce: string, now: number): boolean | Promise<boolean>;
}
