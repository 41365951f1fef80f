import { type Client, request } from '@dex/sdk';

/** One text the operator asks the account to accept, as `GET /web/terms` serves it. */
export interface TermsText {
  readonly document: string;
  readonly title: string;
  readonly version: string;
  readonly text: string;
  readonly sha256: string;
}

/** The texts whose current version the logged-in account has still to accept. */
export interface TermsStatus {
  readonly account: string;
  readonly pending: readonly string[];
}

/**
 * The web application's own routes (not the order book API's, which never asks for them): the
 * current texts, what the account has still to accept, and the record of its acceptance.
 */
export async function getTermsTexts(client: Client): Promise<readonly TermsText[]> {
  return (await request<{ texts: TermsText[] }>(client, { path: ['web', 'terms'] })).texts;
}

export function getTermsStatus(client: Client): Promise<TermsStatus> {
  return request<TermsStatus>(client, { access: 'account', path: ['web', 'terms', 'acceptance'] });
}

/** Records that the account accepted these texts, each named by the version and hash the page showed. */
export function acceptTerms(client: Client, texts: readonly TermsText[]): Promise<TermsStatus> {
  const accept = texts.map(({ document, version, sha256 }) => ({ document, version, sha256 }));
  return request<TermsStatus>(client, {
    access: 'account',
    method: 'POST',
    path: ['web', 'terms', 'acceptance'],
    body: { accept },
  });
}
