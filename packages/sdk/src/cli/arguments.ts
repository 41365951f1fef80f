import { parseArgs } from 'node:util';
import { CoreError, fromDisplayAmount } from '@dex/core';

/** A mistake on the command line or in the environment: exit code 2, with the command's usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Every option of every command; each command names the ones it takes (see `Command.options`). */
export const OPTIONS = {
  url: { type: 'string' },
  'key-file': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  levels: { type: 'string' },
  watch: { type: 'boolean' },
  page: { type: 'string' },
  limit: { type: 'string' },
  sort: { type: 'string' },
  sell: { type: 'string' },
  buy: { type: 'string' },
  side: { type: 'string' },
  type: { type: 'string' },
  price: { type: 'string' },
  size: { type: 'string' },
  spend: { type: 'string' },
  deadline: { type: 'string' },
  'maker-only': { type: 'boolean' },
  'taker-once': { type: 'boolean' },
  amm: { type: 'boolean' },
  all: { type: 'boolean' },
  status: { type: 'string' },
  book: { type: 'string' },
  'cancel-on-disconnect': { type: 'boolean' },
  known: { type: 'boolean' },
  'rpc-url': { type: 'string' },
} as const;

export type OptionName = keyof typeof OPTIONS;

/** The options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionName[] = ['url', 'key-file', 'json', 'help'];

export type OptionValues = ReturnType<typeof parse>['values'];

export interface CommandLine {
  readonly values: OptionValues;
  readonly positionals: readonly string[];
  /** The option names given, in order, for the per-command check. */
  readonly given: readonly OptionName[];
}

const KEY_HELP =
  'Keys are never read from the command line (shell history and the process list show it): set DEX_PRIVATE_KEY, ' +
  'or DEX_KEY_FILE / --key-file with a file of mode 600, and DEX_ACCOUNT=0.0.X for a ledger account.';

/** Option names that ask for a secret on the command line. */
const SECRET_OPTION = /key|secret|mnemonic|seed|private|pass|token|jwt|^pk$|^sk$/i;
/** 32 bytes of hex, the DER hex of a key, or a JWT: a credential whatever option carries it. */
const SECRET_VALUE = [/^(0x)?[0-9a-f]{64}$/i, /^(0x)?30(2e|30)020100[0-9a-f]{60,}$/i, /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/];

/**
 * Refuses credentials on the command line before anything else reads it: an option named like a
 * key (`--private-key`, `--key`, `--secret`, `--token`...) and any argument shaped like a key or a
 * JWT. The message never repeats the argument.
 */
export function refuseSecrets(argv: readonly string[]): void {
  for (const argument of argv) {
    const [name = '', value] = argument.startsWith('--') ? argument.slice(2).split(/=(.*)/s) : ['', argument];
    if (name !== '' && name !== 'key-file' && SECRET_OPTION.test(name)) {
      throw new UsageError(`--${name.slice(0, 40)} is refused. ${KEY_HELP}`);
    }
    // `--<key>` too: parseArgs would quote it back as an unknown option.
    const candidate = (value ?? argument.replace(/^-+/, '')).trim();
    if (SECRET_VALUE.some((pattern) => pattern.test(candidate))) {
      throw new UsageError(`An argument looks like a private key or an access token; it was not used. ${KEY_HELP}`);
    }
  }
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Parses the command line strictly: unknown options and options given twice are usage errors. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  refuseSecrets(argv);
  const parsed = parse(argv);
  const given: OptionName[] = [];
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const name = token.name as OptionName;
    if (given.includes(name)) throw new UsageError(`--${name} is given twice`);
    given.push(name);
  }
  return { values: parsed.values, positionals: parsed.positionals, given };
}

const WHOLE = /^[1-9][0-9]{0,15}$/;

/** A positive whole number (a book or order id, a page), at most `max`. */
export function wholeNumber(text: string, what: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!WHOLE.test(text) || Number(text) > max) {
    throw new UsageError(`${what} must be a whole number from 1${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`);
  }
  return Number(text);
}

/** A numeric option, when given. */
export function countOption(values: OptionValues, name: OptionName, max?: number): number | undefined {
  const value = values[name];
  return typeof value === 'string' ? wholeNumber(value, `--${name}`, max) : undefined;
}

/** An option with a fixed set of values, when given. */
export function choiceOption<T extends string>(values: OptionValues, name: OptionName, choices: readonly T[]): T | undefined {
  const value = values[name];
  if (typeof value !== 'string') return undefined;
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`--${name} must be ${choices.join(' or ')}`);
  return value as T;
}

/** A string option that must be given. */
export function requiredOption(values: OptionValues, name: OptionName): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A display amount (`--size 1.5`) in raw units of a token with `decimals`; more than zero. */
export function amountOption(values: OptionValues, name: OptionName, decimals: number): bigint {
  const text = requiredOption(values, name);
  let raw: bigint;
  try {
    raw = fromDisplayAmount(text, decimals, `--${name}`);
  } catch (error) {
    if (error instanceof CoreError) throw new UsageError(error.shortMessage);
    throw error;
  }
  if (raw === 0n) throw new UsageError(`--${name} must be more than zero`);
  return raw;
}
