import { describe, expect, it } from 'vitest';
import { ledgerTimestamp } from './ledger-timestamp.js';

describe('ledgerTimestamp', () => {
  it('writes unix ms as seconds and nine digits of nanoseconds', () => {
    expect(ledgerTimestamp(1_682_469_351_387)).toBe('1682469351.387000000');
    expect(ledgerTimestamp(1_682_469_351_007)).toBe('1682469351.007000000');
    expect(ledgerTimestamp(1_682_469_351_000)).toBe('1682469351.000000000');
  });
});
