import type { TermsAcceptance } from '../../domain/web-terms/terms.js';
import type { TermsAcceptanceStore } from '../../ports/store/terms-ports.js';

/** The web application's record of accepted texts, as the operator exports it. */
export class TermsAcceptances {
  constructor(private readonly store: TermsAcceptanceStore) {}

  /** Every acceptance, or one account's, oldest first. */
  list(account?: string): Promise<TermsAcceptance[]> {
    return this.store.list(account);
  }
}
