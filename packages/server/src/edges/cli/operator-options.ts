import type { parseArgs } from 'node:util';

/** A mistake in the operator's command line; printed without a stack trace, exit code 2. */
export class UsageError extends Error {}

/** Every option of every command: the command line is parsed once, before the command is known. */
export const OPTIONS = {
  id: { type: 'string' },
  evm: { type: 'string' },
  symbol: { type: 'string' },
  name: { type: 'string' },
  decimals: { type: 'string' },
  icon: { type: 'string' },
  description: { type: 'string' },
  website: { type: 'string' },
  'due-diligence': { type: 'boolean' },
  'fee-on-transfer': { type: 'boolean' },
  'sentinel-report': { type: 'string' },
  'twitter-handle': { type: 'string' },
  'circulating-supply': { type: 'string' },
  known: { type: 'boolean' },
  default: { type: 'boolean' },
  quota: { type: 'string' },
  overage: { type: 'boolean' },
  environment: { type: 'string' },
  base: { type: 'string' },
  quote: { type: 'string' },
  'tick-step': { type: 'string' },
  'size-step': { type: 'string' },
  'lot-size': { type: 'string' },
  'min-notional': { type: 'string' },
  'taker-fee-pips': { type: 'string' },
  'maker-fee-pips': { type: 'string' },
  'cap-fraction-pips': { type: 'string' },
  amm: { type: 'boolean' },
  'key-type': { type: 'string' },
  account: { type: 'string' },
  book: { type: 'string' },
  'public-key': { type: 'string' },
  'key-file': { type: 'string' },
  'allow-in-repo': { type: 'boolean' },
  amount: { type: 'string' },
  fund: { type: 'boolean' },
  approve: { type: 'boolean' },
  associate: { type: 'boolean' },
  from: { type: 'string' },
  to: { type: 'string' },
  force: { type: 'boolean' },
  'rpc-url': { type: 'string' },
  permit2: { type: 'string' },
  'with-amm': { type: 'boolean' },
  sauce: { type: 'string' },
  out: { type: 'string' },
  operator: { type: 'string' },
  'fee-recipient': { type: 'string' },
  'change-delay': { type: 'string' },
  confirmations: { type: 'string' },
  'chain-id': { type: 'string' },
  'domain-name': { type: 'string' },
  'domain-version': { type: 'string' },
  json: { type: 'boolean' },
  create: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; allowNegative: true }>
>['values'];

/** Largest fee rate in pips: 100 %. */
export const MAX_PIPS = 1_000_000;

export function need(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function optional(values: Values, name: keyof Values): string | null {
  const value = values[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

export function wholeNumber(text: string, name: string, max: number): number {
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}`);
  return Number(text);
}

/** A maker fee in pips: negative is a rebate, out of the taker's fee. */
export function makerFeePips(text: string, name: string): number {
  if (!/^-?[0-9]{1,9}$/.test(text) || Math.abs(Number(text)) > MAX_PIPS) {
    throw new UsageError(`--${name} must be a whole number from -${MAX_PIPS} (a rebate) to ${MAX_PIPS}`);
  }
  return Number(text) + 0; // "-0" is 0
}
