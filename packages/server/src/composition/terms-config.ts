import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Network } from '../domain/network.js';
import {
  CLIENT_ADDRESS_POLICIES,
  type ClientAddressPolicy,
  TERMS_DOCUMENTS,
  TERMS_TITLES,
  type TermsDocument,
  type TermsText,
} from '../domain/web-terms/terms.js';
import { ConfigError, type Env, flag, oneOf, text } from './env-values.js';

/** The texts the web page asks an account to accept before it trades, and what is kept of the client's address. */
export interface WebTermsConfig {
  readonly texts: readonly TermsText[];
  readonly clientAddress: ClientAddressPolicy;
}

/** The variables naming each text's file and version. */
const VARIABLES: Readonly<Record<TermsDocument, { file: string; version: string }>> = {
  'terms-of-service': { file: 'TERMS_OF_SERVICE_FILE', version: 'TERMS_OF_SERVICE_VERSION' },
  'risk-notice': { file: 'RISK_NOTICE_FILE', version: 'RISK_NOTICE_VERSION' },
};

/** The devnet's placeholders, beside the package's sources and its build alike. */
const PLACEHOLDER_FOLDER = fileURLToPath(new URL('../../terms/', import.meta.url));
const PLACEHOLDER_VERSION = 'placeholder-1';
const VERSION = /^[A-Za-z0-9._-]{1,64}$/;

function termsText(env: Env, network: Network, cwd: string, document: TermsDocument): TermsText {
  const names = VARIABLES[document];
  const named = text(env, names.file, '');
  if (named === '' && network !== 'devnet') throw new ConfigError(`${names.file} is required with WEB_TERMS on ${network}`);
  const file =
    named === '' ? `${PLACEHOLDER_FOLDER}${document}.placeholder.txt` : isAbsolute(named) ? named : resolve(cwd, named);
  const version = text(env, names.version, named === '' ? PLACEHOLDER_VERSION : '');
  if (!VERSION.test(version)) {
    throw new ConfigError(
      `${names.version} must be 1 to 64 letters, digits, dots, dashes or underscores (required with ${names.file})`,
    );
  }
  let body: string;
  try {
    body = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(`${names.file}: cannot read ${file}`);
  }
  if (body.trim() === '') throw new ConfigError(`${names.file}: ${file} is empty`);
  const sha256 = createHash('sha256').update(body, 'utf8').digest('hex');
  return { document, title: TERMS_TITLES[document], version, text: body, sha256 };
}

/**
 * WEB_TERMS: required by default on testnet and mainnet, where the operator names each text's
 * file and version; off by default on the devnet, which ships placeholders for when it is on.
 */
export function webTermsConfig(env: Env, network: Network, cwd: string): WebTermsConfig | null {
  if (!flag(env, 'WEB_TERMS', network !== 'devnet')) return null;
  return {
    texts: TERMS_DOCUMENTS.map((document) => termsText(env, network, cwd, document)),
    clientAddress: oneOf(env, 'TERMS_CLIENT_ADDRESS', 'full', CLIENT_ADDRESS_POLICIES),
  };
}
