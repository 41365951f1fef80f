import { join } from 'node:path';
import { DevnetAccountKeys } from '../../adapters/accounts/devnet-account-keys.js';
import { generateKeyPair, publicKeyOf } from '../../adapters/accounts/key-pairs.js';
import { DevnetIssuer } from '../../adapters/chain/devnet/devnet-issuer.js';
import { localSecret } from '../../adapters/secrets/local-secret.js';
import type { AccountKeyRecord, AccountKeyType } from '../../domain/accounts/account-keys.js';
import type { DevnetFunding } from '../../ports/devnet-funding.js';
import type { DevnetHost } from './devnet-host.js';

/** A devnet account of a program beside the service: its registry record and its private key (hex), for its signer only. */
export interface KeyFileAccount {
  readonly record: AccountKeyRecord;
  readonly secretKey: string;
}

const SECRET_HEX = /^[0-9a-f]{64}$/;

/** The issuer of the service's embedded devnet chain; null without one (CHAIN=off needs no funding). */
export function devnetIssuer(services: DevnetHost): DevnetFunding | null {
  const { chain } = services;
  return chain?.devnet ? DevnetIssuer.of(chain) : null;
}

/**
 * A devnet account whose private key a file in DATA_DIR keeps (mode 600, made once, reused after a
 * restart): registered under the next free devnet id on first use, clear of the tokens' ids, and
 * found again by its public key after that.
 */
export async function keyFileAccount(services: DevnetHost, file: string, keyType: AccountKeyType): Promise<KeyFileAccount> {
  const { config, store, clock } = services;
  const secretKey = localSecret(join(config.dataDir, file), () =>
    Buffer.from(generateKeyPair(keyType).secretKey).toString('hex'),
  );
  // The file's content is never quoted: it is a private key.
  if (!SECRET_HEX.test(secretKey)) throw new Error(`${file} in DATA_DIR does not hold a 32-byte hex key`);
  const publicKey = publicKeyOf(keyType, Buffer.from(secretKey, 'hex'));
  const publicHex = Buffer.from(publicKey).toString('hex');
  const known = await store.accountKeys.list();
  const tokenIds = new Set((await store.tokens.list()).map((token) => token.id));
  const record =
    known.find((candidate) => candidate.keyType === keyType && candidate.publicKey === publicHex) ??
    (await new DevnetAccountKeys(store.accountKeys).registerNew(keyType, publicKey, clock.now(), tokenIds));
  return { record, secretKey };
}
