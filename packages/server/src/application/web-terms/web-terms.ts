import { AppError } from '../../domain/errors.js';
import {
  type ClientAddressPolicy,
  keptAddress,
  type TermsAcceptance,
  type TermsDocument,
  type TermsText,
} from '../../domain/web-terms/terms.js';
import type { Clock } from '../../ports/clock.js';
import type { TermsAcceptanceStore } from '../../ports/store/terms-ports.js';

/** What the page says the account accepted: the text it showed, by version and hash. */
export interface AcceptedText {
  /** As the client sent it: a document the service does not know is refused. */
  readonly document: string;
  readonly version: string;
  readonly sha256: string;
}

/**
 * The web application's acceptance step: the current texts, which of them an account has still to
 * accept, and the record of an acceptance. Only the web page's routes use it; the order book API
 * never asks (API clients are bound by the API terms instead).
 */
export class WebTerms {
  constructor(
    readonly texts: readonly TermsText[],
    private readonly store: TermsAcceptanceStore,
    private readonly clock: Clock,
    private readonly clientAddress: ClientAddressPolicy,
  ) {}

  /** The texts whose current version (and text) the account has not accepted: a new version asks again. */
  async pending(account: string): Promise<TermsDocument[]> {
    const accepted = await this.store.list(account);
    return this.texts
      .filter(
        (text) =>
          !accepted.some(
            (item) => item.document === text.document && item.version === text.version && item.textSha256 === text.sha256,
          ),
      )
      .map((text) => text.document);
  }

  /**
   * Records the account's acceptance of current texts, durably, before it answers; refuses the
   * whole of it when any item names a version that is not current or the hash of another text.
   */
  async accept(account: string, items: readonly AcceptedText[], clientAddress: string): Promise<TermsAcceptance[]> {
    const acceptedAt = this.clock.now();
    const kept = keptAddress(clientAddress, this.clientAddress);
    const records = items.map((item, index): TermsAcceptance => {
      const current = this.texts.find((text) => text.document === item.document);
      if (current === undefined) throw AppError.atItem(index, 'accept', 'VALIDATION_FAILED', `no text ${item.document}`);
      if (items.findIndex((other) => other.document === item.document) !== index) {
        throw AppError.atItem(index, 'accept', 'VALIDATION_FAILED', `${item.document} is named twice`);
      }
      if (item.version !== current.version) {
        throw AppError.atItem(
          index,
          'accept',
          'TERMS_VERSION_NOT_CURRENT',
          `version ${item.version} of ${item.document} is not the current one (${current.version})`,
        );
      }
      if (item.sha256.toLowerCase() !== current.sha256) {
        throw AppError.atItem(
          index,
          'accept',
          'TERMS_TEXT_MISMATCH',
          `sha256 is not the hash of ${item.document} ${current.version}`,
        );
      }
      return {
        account,
        document: current.document,
        version: item.version,
        textSha256: current.sha256,
        acceptedAt,
        clientAddress: kept,
      };
    });
    await this.store.record(records);
    return records;
  }
}
