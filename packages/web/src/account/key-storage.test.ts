import { describe, expect, it } from 'vitest';
import { forgetKey, type KeyStore, loadKey, normalisePrivateKey, parseStoredKey, saveKey, serialiseKey } from './key-storage.js';

const KEY = `0x${'ab'.repeat(32)}`;

function memoryStore(): KeyStore {
  const items = new Map<string, string>();
  return {
    getItem: (name) => items.get(name) ?? null,
    setItem: (name, value) => void items.set(name, value),
    removeItem: (name) => void items.delete(name),
  };
}

describe('devnet key storage', () => {
  it('accepts a 32-byte hex key with or without 0x, in any case, around spaces', () => {
    expect(normalisePrivateKey(` ${'AB'.repeat(32)} `)).toBe(KEY);
    expect(normalisePrivateKey(KEY.toUpperCase().replace('0X', '0x'))).toBe(KEY);
  });

  it('refuses what is not a 32-byte hex key', () => {
    for (const text of ['', '0x', `0x${'ab'.repeat(31)}`, `0x${'ab'.repeat(33)}`, `0x${'zz'.repeat(32)}`]) {
      expect(normalisePrivateKey(text)).toBeUndefined();
    }
    expect(() => serialiseKey('0x12')).toThrow(RangeError);
  });

  it('round-trips a key and forgets it', () => {
    const store = memoryStore();
    expect(loadKey(store)).toBeUndefined();
    saveKey(store, KEY);
    expect(loadKey(store)).toBe(KEY);
    forgetKey(store);
    expect(loadKey(store)).toBeUndefined();
  });

  it('reads a foreign or broken record as no key', () => {
    for (const text of ['not json', 'null', '{}', '{"version":2,"privateKey":"x"}', '{"version":1,"privateKey":"0x12"}']) {
      expect(parseStoredKey(text)).toBeUndefined();
    }
    expect(parseStoredKey(serialiseKey(KEY))).toBe(KEY);
  });
});
