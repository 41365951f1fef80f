import { readFile, stat } from 'node:fs/promises';
import { isEvmAddress, isLedgerId } from '@dex/core';
import { InvalidKeyError, InvalidParameterError } from '../errors.js';
import { ed25519Signer } from '../signing/ed25519-signer.js';
import { privateKeyBytes } from '../signing/private-key.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import type { KeyType, Signer } from '../signing/signer.js';
import { refuseSecrets, UsageError } from './arguments.js';

/** Who the CLI acts as: the key's signer when there is a key, and the account either way. */
export interface Credentials {
  readonly signer: Signer | undefined;
  /** DEX_ACCOUNT, or the key's own `0x` address; undefined with neither. */
  readonly account: string | undefined;
  /**
   * The 32 bytes of a secp256k1 key, for the commands that sign chain transactions (onboard);
   * undefined for an Ed25519 key or none. A function, so that printing the credentials shows no key.
   */
  readonly transactionKey: (() => Uint8Array) | undefined;
}

const KEY_TYPES: readonly KeyType[] = ['secp256k1', 'ed25519'];
/** A key file holds 64 hex digits, or the DER hex of a key; anything much larger is not one. */
const MAX_KEY_FILE_BYTES = 1024;

function accountOf(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const account = env.DEX_ACCOUNT?.trim();
  if (account === undefined || account === '') return undefined;
  if (isLedgerId(account)) return account;
  if (isEvmAddress(account)) return account.toLowerCase();
  throw new UsageError('DEX_ACCOUNT must be a ledger account id such as 0.0.1234, or a 0x address');
}

function keyTypeOf(env: Readonly<Record<string, string | undefined>>, account: string | undefined): KeyType {
  const keyType = env.DEX_KEY_TYPE?.trim().toLowerCase();
  if (keyType === undefined || keyType === '') return account !== undefined && isLedgerId(account) ? 'ed25519' : 'secp256k1';
  if (!(KEY_TYPES as readonly string[]).includes(keyType)) throw new UsageError('DEX_KEY_TYPE must be ed25519 or secp256k1');
  return keyType as KeyType;
}

/**
 * The key file's text. It must be a regular file open to its owner only, as `npm run cli -- account
 * create --key-file` writes it (mode 600); ssh refuses looser key files for the same reason.
 */
async function readKeyFile(path: string): Promise<string> {
  // A key pasted where the path goes would otherwise be echoed in the errors below.
  refuseSecrets([path]);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new UsageError(`Cannot read the key file ${path}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  if (!info.isFile()) throw new UsageError(`The key file ${path} is not a regular file`);
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8);
    throw new UsageError(`The key file ${path} is open to other users (mode ${mode}); make it private: chmod 600 ${path}`);
  }
  if (info.size > MAX_KEY_FILE_BYTES) throw new UsageError(`The key file ${path} is too large to hold a key`);
  return readFile(path, 'utf8');
}

/** The key's text and where it came from (for messages); undefined when no key is configured. */
async function keyText(
  env: Readonly<Record<string, string | undefined>>,
  keyFile: string | undefined,
): Promise<{ text: string; source: string } | undefined> {
  const fromEnv = env.DEX_PRIVATE_KEY?.trim() || undefined;
  const envFile = env.DEX_KEY_FILE?.trim() || undefined;
  if (keyFile !== undefined) return { text: await readKeyFile(keyFile), source: `the key file ${keyFile}` };
  if (envFile !== undefined && fromEnv !== undefined) throw new UsageError('Set DEX_PRIVATE_KEY or DEX_KEY_FILE, not both');
  if (envFile !== undefined) return { text: await readKeyFile(envFile), source: `the key file ${envFile}` };
  return fromEnv === undefined ? undefined : { text: fromEnv, source: 'DEX_PRIVATE_KEY' };
}

function signerOf(text: string, keyType: KeyType, account: string | undefined): Signer {
  if (keyType === 'ed25519') {
    if (account === undefined || !isLedgerId(account)) {
      throw new UsageError('An Ed25519 key logs in as its ledger account: set DEX_ACCOUNT=0.0.X');
    }
    return ed25519Signer(text, { account });
  }
  if (account !== undefined && isLedgerId(account)) return secp256k1Signer(text, { account });
  const signer = secp256k1Signer(text);
  if (account !== undefined && account !== signer.account) {
    throw new UsageError(`DEX_ACCOUNT is ${account}, but the key's address is ${signer.account}`);
  }
  return signer;
}

/**
 * The credentials the environment configures: DEX_PRIVATE_KEY (hex, 0x-hex or the ledger's DER hex)
 * or a key file (`--key-file`, else DEX_KEY_FILE), DEX_ACCOUNT and DEX_KEY_TYPE (default ed25519 for
 * a `0.0.X` account, secp256k1 otherwise). Read only by commands that act as an account. No error
 * quotes key material.
 */
export async function loadCredentials(
  env: Readonly<Record<string, string | undefined>>,
  keyFile: string | undefined,
): Promise<Credentials> {
  const account = accountOf(env);
  const keyType = keyTypeOf(env, account);
  const key = await keyText(env, keyFile);
  if (key === undefined) return { signer: undefined, account, transactionKey: undefined };
  try {
    const signer = signerOf(key.text, keyType, account);
    const { text } = key;
    const transactionKey = keyType === 'secp256k1' ? () => privateKeyBytes(text, 'secp256k1') : undefined;
    return { signer, account: signer.account, transactionKey };
  } catch (error) {
    if (error instanceof InvalidKeyError || error instanceof InvalidParameterError) {
      throw new UsageError(`${key.source}: ${error.message} (DEX_KEY_TYPE is ${keyType})`);
    }
    throw error;
  }
}
