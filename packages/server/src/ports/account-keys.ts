import type { AccountKey } from '../domain/accounts/account-keys.js';

/** Who holds which key for a ledger account `0.0.X`. */
export interface AccountKeyRegistry {
  /** undefined when the account does not exist or its key is not a single ED25519/ECDSA key (threshold/key lists are unsupported). */
  lookup(accountId: string): Promise<AccountKey | undefined>;
}

/** The mirror node gave no usable answer (down, slow, redirected elsewhere, nonsense). Never cached; callers answer 503. */
export class AccountKeyLookupError extends Error {
  override readonly name = 'AccountKeyLookupError';
}
