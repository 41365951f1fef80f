import { isLedgerId } from '@dex/core';
import {
  type AccountKey,
  asEvmAddress,
  derivedEvmAddress,
  InvalidAccountKeyError,
  parsePublicKeyHex,
} from '../../domain/accounts/account-keys.js';
import { TtlCache } from '../../domain/ttl-cache.js';
import { AccountKeyLookupError, type AccountKeyRegistry } from '../../ports/account-keys.js';
import type { Clock } from '../../ports/clock.js';

export interface MirrorNodeAccountKeysOptions {
  /** The mirror node's REST root, e.g. `https://mainnet-public.mirrornode.hedera.com`; a path prefix and query are kept. */
  readonly baseUrl: string;
  readonly fetch?: typeof fetch;
  /** For the whole exchange, body included. Default 3000. */
  readonly timeoutMs?: number;
  /** How long a found key is reused. Default 60 000. */
  readonly cacheTtlMs?: number;
  /** How long "no usable key" is reused. Default 5 000. */
  readonly negativeCacheTtlMs?: number;
  /** Bound of each cache (found keys, misses); the oldest entry goes first. Default 10 000. */
  readonly maxEntries?: number;
  readonly clock: Clock;
}

/** An account answer is about 2 KiB without its transactions; anything far larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a body up to MAX_BODY_BYTES, so a broken or hostile upstream cannot fill memory. */
async function readBody(response: Response): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new AccountKeyLookupError(`the mirror node sent more than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
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
  private readonly base: URL;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly found: TtlCache<AccountKey>;
  private readonly missing: TtlCache<true>;
  private readonly pending = new Map<string, Promise<AccountKey | undefined>>();

  constructor(options: MirrorNodeAccountKeysOptions) {
    this.base = new URL(options.baseUrl);
    if (this.base.protocol !== 'https:' && this.base.protocol !== 'http:') {
      throw new Error('the mirror node URL must be http or https');
    }
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.clock = options.clock;
    const maxEntries = options.maxEntries ?? 10_000;
    this.found = new TtlCache(options.cacheTtlMs ?? 60_000, maxEntries);
    this.missing = new TtlCache(options.negativeCacheTtlMs ?? 5_000, maxEntries);
  }

  async lookup(accountId: string): Promise<AccountKey | undefined> {
    // The id becomes part of a URL path: only the strict shard.realm.num form goes out.
    if (!isLedgerId(accountId)) return undefined;
    const now = this.clock.now();
    const cached = this.found.get(accountId, now);
    if (cached !== undefined) return copyOf(cached);
    if (this.missing.get(accountId, now) !== undefined) return undefined;
    let request = this.pending.get(accountId);
    if (request === undefined) {
      request = this.fetchKey(accountId).finally(() => this.pending.delete(accountId));
      this.pending.set(accountId, request);
    }
    const key = await request;
    return key === undefined ? undefined : copyOf(key);
  }

  private async fetchKey(accountId: string): Promise<AccountKey | undefined> {
    const body = await this.fetchAccount(accountId);
    const key = body === undefined ? undefined : accountKeyOf(accountId, body);
    const now = this.clock.now();
    if (key === undefined) this.missing.set(accountId, true, now);
    else this.found.set(accountId, key, now);
    return key;
  }

  /** The parsed account body, or undefined when the mirror node does not know the account (404). */
  private async fetchAccount(accountId: string): Promise<unknown> {
    let url = new URL(this.base);
    url.pathname = `${this.base.pathname.replace(/\/+$/, '')}/api/v1/accounts/${accountId}`;
    // Only the key is needed; the recent transactions would multiply the body size.
    url.searchParams.set('transactions', 'false');
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await this.fetch(url, { signal, redirect: 'manual', headers: { accept: 'application/json' } });
        if (response.status === 200) return JSON.parse(await readBody(response));
        await response.body?.cancel();
        if (response.status === 404) return undefined;
        const location = response.headers.get('location');
        if (!REDIRECT_STATUSES.has(response.status) || location === null) {
          throw new AccountKeyLookupError(`the mirror node answered ${response.status} for account ${accountId}`);
        }
        const next = new URL(location, url);
        // Never carry the request (and whatever credentials the base URL holds) to another host.
        if (next.origin !== url.origin) throw new AccountKeyLookupError('the mirror node redirected to another host');
        if (redirects >= MAX_REDIRECTS) throw new AccountKeyLookupError('the mirror node redirected too often');
        url = next;
      }
    } catch (error) {
      if (error instanceof AccountKeyLookupError) throw error;
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs} ms`
          : error instanceof SyntaxError
            ? 'the body is not JSON'
            : 'the request failed';
      throw new AccountKeyLookupError(`the mirror node could not be asked for account ${accountId}: ${reason}`, { cause: error });
    }
  }
}
