import type { TermsAcceptance } from '../../domain/web-terms/terms.js';

/** Who accepted which text of the web application, and when: kept for as long as the store. */
export interface TermsAcceptanceStore {
  /**
   * Records the acceptances in one transaction, durable once it resolves. An account's second
   * acceptance of the same version and text keeps the first record (and its time).
   */
  record(acceptances: readonly TermsAcceptance[]): Promise<void>;
  /** Every acceptance, or one account's, oldest first. */
  list(account?: string): Promise<TermsAcceptance[]>;
}
