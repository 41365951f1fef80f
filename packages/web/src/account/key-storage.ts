/**
 * The devnet key as this browser keeps it: one JSON record in `localStorage`, unencrypted (the page
 * says so). A record that is not ours or not a well-formed key reads as no key, never as an error.
 */

export const KEY_STORAGE_NAME = 'dex.devnet-key';

const PRIVATE_KEY = /^0x[0-9a-f]{64}$/;

interface StoredKey {
  readonly version: 1;
  readonly privateKey: string;
}

/** A typed key as `0x` plus 64 lower-case hex digits, or undefined when it is not one. */
export function normalisePrivateKey(text: string): string | undefined {
  const trimmed = text.trim().toLowerCase();
  const prefixed = trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`;
  return PRIVATE_KEY.test(prefixed) ? prefixed : undefined;
}

export function serialiseKey(privateKey: string): string {
  const normalised = normalisePrivateKey(privateKey);
  if (normalised === undefined) throw new RangeError('not a 32-byte hex private key');
  const record: StoredKey = { version: 1, privateKey: normalised };
  return JSON.stringify(record);
}

export function parseStoredKey(text: string | null): string | undefined {
  if (text === null) return undefined;
  try {
    const record = JSON.parse(text) as Partial<StoredKey> | null;
    if (record?.version !== 1 || typeof record.privateKey !== 'string') return undefined;
    return normalisePrivateKey(record.privateKey);
  } catch {
    return undefined;
  }
}

/** The part of `Storage` used here, so tests can pass a map. */
export type KeyStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const loadKey = (store: KeyStore) => parseStoredKey(store.getItem(KEY_STORAGE_NAME));
export const saveKey = (store: KeyStore, privateKey: string) => store.setItem(KEY_STORAGE_NAME, serialiseKey(privateKey));
export const forgetKey = (store: KeyStore) => store.removeItem(KEY_STORAGE_NAME);
