import { createHash, randomUUID } from 'node:crypto';

/** A version 4 UUID in any letter case, the only shape of an API key. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A fresh API key: a random (version 4) UUID, 122 random bits. */
export function newApiKey(): string {
  return randomUUID();
}

export function isApiKey(text: string): boolean {
  return UUID_V4.test(text);
}

/**
 * What the store keeps of a key: the SHA-256 (lower-case hex) of its lower-case text, since UUIDs
 * compare without regard to case. Any text hashes, so a malformed key is looked up, and missed,
 * exactly like an unknown one.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key.toLowerCase()).digest('hex');
}
