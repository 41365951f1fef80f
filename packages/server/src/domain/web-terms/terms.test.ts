import { describe, expect, it } from 'vitest';
import { keptAddress } from './terms.js';

describe("what an acceptance keeps of the client's address", () => {
  it('keeps it whole, nothing, or its network: an IPv4 /24 or an IPv6 /48', () => {
    expect(keptAddress('203.0.113.77', 'full')).toBe('203.0.113.77');
    expect(keptAddress('203.0.113.77', 'none')).toBeNull();
    expect(keptAddress('203.0.113.77', 'masked')).toBe('203.0.113.0');
    expect(keptAddress('::ffff:198.51.100.9', 'masked')).toBe('198.51.100.0');
    expect(keptAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348', 'masked')).toBe('2001:db8:85a3::');
    expect(keptAddress('2001:db8::1', 'masked')).toBe('2001:db8:0::');
    expect(keptAddress('::1', 'masked')).toBe('0:0:0::');
  });
});
