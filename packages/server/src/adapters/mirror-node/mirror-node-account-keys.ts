import { isLedgerId } from '@dex/core';
import {
  type AccountKey,
  asEvmAddress,
  derivedEvmAddress,
  InvalidAccountKeyError,
  parsePublicKeyHex,
} from '../../domain/accounts/account-keys.js';
import { CachedLookups } from '../../domain/cached-lookups.js';
import { AccountKeyLookupError, type AccountKeyRegistry } from '../../ports/account-keys.js';
import type { Clock } from '../../ports/clock.js';
import { MirrorNodeClient, type MirrorNodeClientOptions, MirrorNodeError } from './mirror-node-client.js';

export interface MirrorNodeAccountKeysOptions extends MirrorNodeClientOptions {
  /** How long a found key is reused. Default 60 000. */
  readonly cacheTtlMs?: number;
  /** How long "no usable key" is reused. Default 5 000. */
  readonly negativeCacheTtlMs?: number;
  /** Bound of each cache (found keys, misses); the oldest entry goes first. Default 10 000. */
  readonly maxEntries?: number;
  readonly clock: Clock;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The key of a mirror node account body; undefined for deleted or keyless accounts and keys other than one ED25519/ECDSA key. */
function accountKeyOf(accountId: string, body: unknown): AccountKey | undefined {
  if (!isRecord(body) || body.account !== accountId) {
    throw new AccountKeyLookupError(`the mirror node sent a body that is not account ${accountId}`);
  }
  if (body.deleted === true) return undefined;
  const key = body.key;
  // A hollow account (created by a transfer to an EVM address) has no key until it signs.
  if (key === null || key === undefined) return undefined;
  if (!isRecord(key) || typeof key._type !== 'string' || typeof key.key !== 'string') {
    throw new AccountKeyLookupError(`the mirror node sent a malformed key for account ${accountId}`);
  }
  const keyType = key._type;
  // ProtobufEncoded stands for key lists and threshold keys, which a single signature cannot satisfy.
  if (keyType !== 'ED25519' && keyType !== 'ECDSA_SECP256K1') return undefined;
  let publicKey: Uint8Array;
  try {
    publicKey = parsePublicKeyHex(keyType, key.key);
  } catch (error) {
    if (error instanceof InvalidAccountKeyError) return undefined;
    throw error;
  }
  const evmAddress =
    keyType === 'ECDSA_SECP256K1'
      ? (asEvmAddress(body.evm_address) ?? derivedEvmAddress(accountId, keyType, publicKey))
      : derivedEvmAddress(accountId, keyType, publicKey);
  return { accountId, keyType, publicKey, evmAddress };
}

/** A copy, so that no caller can change the key bytes the cache hands to the next one. */
function copyOf(key: AccountKey): AccountKey {
  return { ...key, publicKey: key.publicKey.slice() };
}

/**
 * Production account keys: `GET /api/v1/accounts/{id}` on the ledger's mirror node, cached
 * (found and missing apart, so a flood of unknown ids cannot evict the keys in use), with
 * concurrent lookups of one id sharing one request.
 */
export class MirrorNodeAccountKeys implements AccountKeyRegistry {
  private readonly mirror: MirrorNodeClient;
  private readonly clock: Clock;
  private readonly keys: CachedLookups<AccountKey>;

  constructor(options: MirrorNodeAccountKeysOptions) {
    this.mirror = new MirrorNodeClient(options);
    this.clock = options.clock;
    this.keys = new CachedLookups({
      foundTtlMs: options.cacheTtlMs ?? 60_000,
      missingTtlMs: options.negativeCacheTtlMs ?? 5_000,
      maxEntries: options.maxEntries ?? 10_000,
    });
  }

  async lookup(accountId: string): Promise<AccountKey | undefined> {
    // The id becomes part of a URL path: only the strict shard.realm.num form goes out.
    if (!isLedgerId(accountId)) return undefined;
    const key = await this.keys.get(accountId, this.now, async (id) => {
      const body = await this.fetchAccount(id);
      return body === undefined ? undefined : accountKeyOf(id, body);
    });
    return key === undefined ? undefined : copyOf(key);
  }

  private readonly now = (): number => this.clock.now();

  /** The parsed account body, or undefined when the mirror node does not know the account (404). */
  private async fetchAccount(accountId: string): Promise<unknown> {
    try {
      // Only the key is needed; the recent transactions would multiply the body size.
      return await this.mirror.get(`accounts/${accountId}`, `account ${accountId}`, { transactions: 'false' });
    } catch (error) {
      if (error instanceof MirrorNodeError) throw new AccountKeyLookupError(error.message, { cause: error });
      throw error;
    }
  }
}
