import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTagged, encodeTagged } from './tagged-json.js';

describe('tagged JSON', () => {
  it('brings back every bigint, string and number it was given', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.bigInt(), fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
      node: fc.oneof(
        fc.array(tie('any')),
        fc.dictionary(
          fc.string().filter((key) => key !== '__proto__' && key !== '$bigint'),
          tie('any'),
        ),
      ),
      any: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('node')),
    })).any;
    fc.assert(
      fc.property(value, (item) => {
        expect(decodeTagged(encodeTagged(item))).toEqual(item);
      }),
    );
  });

  it('keeps a uint256 exact', () => {
    const max = 2n ** 256n - 1n;
    expect(decodeTagged(encodeTagged({ amount: max }))).toEqual({ amount: max });
  });

  it('refuses a tag that is not an integer', () => {
    expect(() => decodeTagged(new TextEncoder().encode('{"$bigint":"1e3"}'))).toThrow(SyntaxError);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(() => decodeTagged(new Uint8Array([0xff, 0xfe]))).toThrow();
  });
});
