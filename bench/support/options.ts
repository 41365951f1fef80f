/** Command-line options of the benchmarks. */
import { resolve } from 'node:path';

/** A whole-number option (`_` separators allowed) within its range, or the fallback when absent. */
export function readCount(flag: string, text: string | undefined, fallback: number, minimum: number, maximum: number): number {
  if (text === undefined) return fallback;
  const value = Number(text.replaceAll('_', ''));
  if (!Number.isSafeInteger(value) || value < minimum || value > maximum) {
    throw new Error(`${flag} must be an integer in [${minimum}, ${maximum}], got ${text}`);
  }
  return value;
}

/** Options of the benchmarks that stream signed orders to a server (parseArgs specs). */
export const ORDER_STREAM_OPTIONS = {
  orders: { type: 'string' },
  accounts: { type: 'string' },
  batch: { type: 'string' },
  'in-flight': { type: 'string' },
  'time-limit': { type: 'string' },
  'cpu-prof': { type: 'string' },
} as const;

/** `--accounts`: an even count, half of them selling and half buying. */
export function readAccounts(text: string | undefined, fallback: number, maximum: number): number {
  const accounts = readCount('--accounts', text, fallback, 2, maximum);
  if (accounts % 2 !== 0) throw new Error('--accounts must be even: half sell, half buy');
  return accounts;
}

/** `--cpu-prof DIR`: where the server writes its CPU profile, absolute. */
export function readProfileDir(text: string | undefined): string | undefined {
  return text === undefined ? undefined : resolve(text);
}
