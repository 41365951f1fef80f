/** A whole-number option in [minimum, maximum] (`_` separators allowed), or `fallback` when absent. */
export function readCount(flag: string, text: string | undefined, fallback: number, minimum: number, maximum: number): number {
  if (text === undefined) return fallback;
  const value = Number(text.replaceAll('_', ''));
  if (!Number.isSafeInteger(value) || value < minimum || value > maximum) {
    throw new Error(`${flag} must be an integer in [${minimum}, ${maximum}], got ${text}`);
  }
  return value;
}
