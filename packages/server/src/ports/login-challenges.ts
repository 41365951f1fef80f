/** An outstanding login challenge: the exact text the wallet must sign. */
export interface Challenge {
  readonly nonce: string;
  readonly message: string;
  readonly expiresAt: number;
}

/**
 * Login challenges: single-use (consumed by the verify that answers one) and short-lived, with a
 * bound per account and in all. Kept in one process, or in Redis, where a challenge issued by one
 * gateway is answered at another.
 */
export interface LoginChallenges {
  /** Opens a challenge; `compose` writes the message around a fresh nonce and the expiry time. */
  issue(account: string, now: number, compose: (nonce: string, expiresAt: number) => string): Challenge | Promise<Challenge>;
  /** The account's challenges that can still be answered, oldest first. */
  pending(account: string, now: number): readonly Challenge[] | Promise<readonly Challenge[]>;
  /** Consumes a challenge of the account; false when it was already used, pushed out or expired. */
  consume(account: string, nonce: string, now: number): boolean | Promise<boolean>;
}
