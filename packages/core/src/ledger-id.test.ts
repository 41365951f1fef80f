import { describe, expect, it } from 'vitest';
import { isLedgerId, ledgerIdOfAddress, longZeroAddress, parseLedgerId } from './ledger-id.js';

describe('ledger ids', () => {
  it('parses shard.realm.num', () => {
    expect(parseLedgerId('0.0.123456')).toEqual({ shard: 0n, realm: 0n, num: 123_456n });
  });

  it.each(['', '0.0', '0.0.01', '0.0.-1', '0.0.1 ', 'a.b.c', '0.0.1.2', '0.0.18446744073709551616'])('rejects %j', (text) => {
    expect(() => parseLedgerId(text)).toThrow(/ledger id/);
  });

  it('maps an entity to its long-zero EVM address', () => {
    expect(longZeroAddress('0.0.1456986')).toBe('0x0000000000000000000000000000000000163b5a');
    expect(longZeroAddress('1.2.3')).toBe('0x0000000100000000000000020000000000000003');
  });

  it('tells ledger ids from other strings', () => {
    expect(isLedgerId('0.0.5')).toBe(true);
    expect(isLedgerId('0x0000000000000000000000000000000000000005')).toBe(false);
    expect(isLedgerId(5)).toBe(false);
  });

  it('reads the ledger id back from a long-zero address, and none from an address of its own', () => {
    expect(ledgerIdOfAddress('0x0000000000000000000000000000000000163B5A')).toBe('0.0.1456986');
    expect(ledgerIdOfAddress(longZeroAddress('1.2.3'))).toBe('1.2.3');
    expect(ledgerIdOfAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3')).toBeUndefined();
    expect(ledgerIdOfAddress('0.0.5')).toBeUndefined();
  });
});
