/**
 * Strict DER decoding of an ECDSA signature, SEQUENCE { INTEGER r, INTEGER s }, for the Wycheproof
 * tests: short-form lengths only (a secp256k1 signature is at most 72 bytes, so a long form is
 * never minimal), minimal positive integers, nothing after the sequence. Anything else is null.
 */
export function parseDerSignature(bytes: Uint8Array): { r: bigint; s: bigint } | null {
  const length = bytes[1];
  if (bytes[0] !== 0x30 || length === undefined || length >= 0x80 || length !== bytes.length - 2) return null;
  const r = readInteger(bytes, 2);
  if (r === null) return null;
  const s = readInteger(bytes, r.end);
  if (s === null || s.end !== bytes.length) return null;
  return { r: r.value, s: s.value };
}

function readInteger(bytes: Uint8Array, offset: number): { value: bigint; end: number } | null {
  if (bytes[offset] !== 0x02) return null;
  const length = bytes[offset + 1];
  // 0x80 and above would be the long form (or indefinite), never minimal for these sizes.
  if (length === undefined || length === 0 || length >= 0x80) return null;
  const start = offset + 2;
  const end = start + length;
  if (end > bytes.length) return null;
  const first = bytes[start] as number;
  if (first & 0x80) return null; // negative
  if (first === 0 && length > 1 && ((bytes[start + 1] as number) & 0x80) === 0) return null; // padded
  return { value: BigInt(`0x${Buffer.from(bytes.subarray(start, end)).toString('hex')}`), end };
}
