/**
 * JSON for the service's own messages between its processes (commands, answers, commit events):
 * bigints travel as `{"$bigint":"<decimal>"}` and come back as bigints, so amounts never pass
 * through a float. Not for the public API, whose amounts are plain decimal strings, and not for
 * objects whose keys a client chooses: one with the single key `$bigint` would come back a bigint.
 */

const TAG = '$bigint';
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function isTagged(value: unknown): value is { [TAG]: string } {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === TAG && typeof (value as Record<string, unknown>)[TAG] === 'string';
}

/** The value as UTF-8 JSON bytes, bigints tagged. */
export function encodeTagged(value: unknown): Uint8Array {
  return encoder.encode(
    JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? { [TAG]: item.toString() } : item)),
  );
}

/** The value `encodeTagged` wrote; throws on bytes that are not UTF-8 JSON or a tag that is not an integer. */
export function decodeTagged(bytes: Uint8Array): unknown {
  return JSON.parse(decoder.decode(bytes), (_key, item: unknown) => {
    if (!isTagged(item)) return item;
    const text = item[TAG];
    if (!/^-?\d+$/.test(text)) throw new SyntaxError(`not an integer: ${text.slice(0, 40)}`);
    return BigInt(text);
  });
}
