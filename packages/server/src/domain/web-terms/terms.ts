/**
 * The texts the web application asks a logged-in account to accept before it offers trading
 * (the seed's production rule). API clients are bound by separate API terms: no API route asks.
 */
export const TERMS_DOCUMENTS = ['terms-of-service', 'risk-notice'] as const;

export type TermsDocument = (typeof TERMS_DOCUMENTS)[number];

export const TERMS_TITLES: Readonly<Record<TermsDocument, string>> = {
  'terms-of-service': 'Terms of service',
  'risk-notice': 'Order book risk notice',
};

/** One text as the operator supplied it, with the version the operator gave it and its hash. */
export interface TermsText {
  readonly document: TermsDocument;
  readonly title: string;
  readonly version: string;
  readonly text: string;
  /** Lower-case hex SHA-256 of the text's UTF-8 bytes: what an acceptance names. */
  readonly sha256: string;
}

/** One account's acceptance of one version of one text, as recorded. */
export interface TermsAcceptance {
  /** The logged-in account, as its access token names it. */
  readonly account: string;
  readonly document: TermsDocument;
  readonly version: string;
  readonly textSha256: string;
  /** Unix ms. */
  readonly acceptedAt: number;
  /** The client's address as the operator's privacy policy allows (TERMS_CLIENT_ADDRESS); null: not kept. */
  readonly clientAddress: string | null;
}

/** How much of the client's address an acceptance keeps. */
export type ClientAddressPolicy = 'full' | 'masked' | 'none';

export const CLIENT_ADDRESS_POLICIES: readonly ClientAddressPolicy[] = ['full', 'masked', 'none'];

const IPV4 = /^(?:::ffff:)?(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/i;

/** The first three groups of an IPv6 address (its /48, the site), compressed groups expanded. */
function ipv6Site(address: string): string {
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 3).join(':')}::`;
}

/** The address kept with an acceptance: whole, masked to its network (IPv4 /24, IPv6 /48), or none. */
export function keptAddress(address: string, policy: ClientAddressPolicy): string | null {
  if (policy === 'none') return null;
  if (policy === 'full') return address;
  const v4 = IPV4.exec(address);
  return v4 === null ? ipv6Site(address) : `${v4[1]}.0`;
}
