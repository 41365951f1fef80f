import { rm, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { assertTokenDecimals, CoreError, isEvmAddress, isLedgerId, longZeroAddress, MarketGrid } from '@dex/core';
import { type AccountKeyType, InvalidAccountKeyError, parsePublicKeyHex } from '../accounts/account-keys.js';
import { DevnetAccountKeys } from '../accounts/devnet-account-keys.js';
import { generateKeyPair } from '../accounts/key-pairs.js';
import { DevnetNotRunningError } from '../chain/devnet-connection.js';
import type { DevnetIssuer } from '../chain/devnet-issuer.js';
import type { Network } from '../config.js';
import { seedDevnet } from '../devnet/seed.js';
import { normaliseAccountId } from '../modules/auth/trading-identity.js';
import { hashApiKey, isApiKey, newApiKey } from '../modules/data-api/api-key.js';
import { monthOf } from '../modules/data-api/utc-month.js';
import { DEFAULT_FEES } from '../registry/default-fees.js';
import { parseBookId } from '../registry/market-registry.js';
import type { ApiKeyRecord, ApiKeyStatus } from '../store/api-key-ports.js';
import type { FeeOverride } from '../store/order-ports.js';
import {
  type AccountKeyRecord,
  type BookRecord,
  type BookStatus,
  type Store,
  StoreConflictError,
  type TokenListingChange,
  type TokenRecord,
} from '../store/ports.js';
import type { Clock } from '../util/clock.js';

export interface OperatorIo {
  readonly store: Store;
  /** The network of the store (NETWORK): API keys are issued for it unless told otherwise. */
  readonly network: Network;
  readonly clock: Clock;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The issuer of the running service's devnet chain; throws when no devnet chain runs. */
  readonly devnet?: () => Promise<DevnetIssuer>;
}

export const OPERATOR_USAGE = `Operator commands (the server picks up changes within a second):

  token add --id 0.0.X --symbol SYM --name NAME --decimals N [--evm 0x...] [listing options]
  token update --id 0.0.X [listing options]     (an empty value clears a text field)
               listing options: [--icon URL] [--description TEXT] [--website URL]
               [--sentinel-report URL] [--twitter-handle NAME] [--circulating-supply RAW]
               [--[no-]due-diligence] [--[no-]fee-on-transfer] [--[no-]known] [--[no-]default]
                       --known and --default put the token on the data API's curated lists
  token list
  book add --base <token id|symbol> --quote <token id|symbol> --tick-step D --size-step D
           --lot-size D --min-notional D [--taker-fee-pips N] [--maker-fee-pips N] [--amm]
  book list
  book open|close|halt|resume <book id>
  account add --id 0.0.X --key-type ed25519|secp256k1 --public-key HEX
  account create --key-type ed25519|secp256k1 --key-file PATH [--amount N] [--no-fund]
                       devnet faucet: a new account 0.0.N with a fresh key pair; the private key
                       goes to PATH (hex, mode 600, never overwritten), the public key is registered;
                       with the devnet chain running it is funded as by account fund
  account fund --account <0.0.X|0x...> [--amount N]
                       devnet chain: gas money, N whole units (default 1000) of every token, and an
                       unlimited reactor allowance for each; needs the service running
  account list
  fee set --account <0.0.X|0x...> --book ID --taker-fee-pips N --maker-fee-pips N
                       fee rates of one account on one book, replacing the book's own
  fee clear --account <0.0.X|0x...> --book ID
  fee list
  devnet seed          create the devnet markets in an empty store
  apikey issue --name NAME --quota N [--overage] [--environment devnet|testnet|mainnet]
                       a data API key with N requests per UTC month (--overage: serve and count
                       requests past N instead of refusing them); the key is printed once and
                       only its SHA-256 is stored
  apikey revoke|suspend|resume <key id>      revoking is final
  apikey list
  apikey usage <key id|key>                  this month's figures and the requests of every month

Add --json for machine-readable output.`;

/** A mistake in the operator's command line; printed without a stack trace. */
class UsageError extends Error {}

const SYMBOL = /^[A-Za-z0-9.+-]{1,16}$/;
const MAX_PIPS = 1_000_000;

const OPTIONS = {
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
  amm: { type: 'boolean' },
  'key-type': { type: 'string' },
  account: { type: 'string' },
  book: { type: 'string' },
  'public-key': { type: 'string' },
  'key-file': { type: 'string' },
  amount: { type: 'string' },
  fund: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; allowNegative: true }>>['values'];

function need(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function optional(values: Values, name: keyof Values): string | null {
  const value = values[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function wholeNumber(text: string, name: string, max: number): number {
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}`);
  return Number(text);
}

function httpsUrl(text: string | null, name: string): string | null {
  if (text === null) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--${name} must be a URL`);
  }
  if (url.protocol !== 'https:') throw new UsageError(`--${name} must be an https URL`);
  return url.toString();
}

function findToken(tokens: readonly TokenRecord[], reference: string, name: string): TokenRecord {
  const matches = isLedgerId(reference)
    ? tokens.filter((token) => token.id === reference)
    : tokens.filter((token) => token.symbol.toLowerCase() === reference.toLowerCase());
  if (matches.length > 1) throw new UsageError(`--${name} ${reference} matches several tokens; use the token id`);
  const [token] = matches;
  if (token === undefined) throw new UsageError(`--${name}: no token ${reference}`);
  return token;
}

function describeBook(book: BookRecord): string {
  const flags = [book.status, book.isHalted ? 'HALTED' : '', book.isAmmEnabled ? 'AMM' : ''].filter(Boolean).join(' ');
  return `${book.id}\t${book.baseTokenId}/${book.quoteTokenId}\t${flags}\ttick ${book.tickStep} size ${book.sizeStep} lot ${book.lotSize} minNotional ${book.minNotional}\tfees taker ${book.takerFeePips} maker ${book.makerFeePips} pips`;
}

const TWITTER_HANDLE = /^@?([A-Za-z0-9_]{1,15})$/;

/** A text option of `token update`: undefined when absent, null when given empty (clear it). */
function textChange(values: Values, name: keyof Values): string | null | undefined {
  const value = values[name];
  if (typeof value !== 'string') return undefined;
  return value === '' ? null : value;
}

/**
 * The listing fields a command line names, checked; absent ones stay out of the result. On
 * `token add` every field ends up set (see addToken); on `token update` only the named ones change.
 */
function listingChange(values: Values): TokenListingChange {
  const change: { -readonly [K in keyof TokenListingChange]: TokenListingChange[K] } = {};
  const icon = textChange(values, 'icon');
  if (icon !== undefined) change.icon = httpsUrl(icon, 'icon');
  const description = textChange(values, 'description');
  if (description !== undefined) {
    if (description !== null && description.length > 1_000) throw new UsageError('--description must be at most 1000 characters');
    change.description = description;
  }
  const website = textChange(values, 'website');
  if (website !== undefined) change.website = httpsUrl(website, 'website');
  const report = textChange(values, 'sentinel-report');
  if (report !== undefined) change.sentinelReport = httpsUrl(report, 'sentinel-report');
  const handle = textChange(values, 'twitter-handle');
  if (handle !== undefined) {
    const match = handle === null ? null : TWITTER_HANDLE.exec(handle);
    if (handle !== null && !match) throw new UsageError('--twitter-handle must be 1 to 15 letters, digits or _');
    change.twitterHandle = match?.[1] ?? null;
  }
  const supply = textChange(values, 'circulating-supply');
  if (supply !== undefined) {
    if (supply !== null && !/^(0|[1-9][0-9]{0,77})$/.test(supply)) {
      throw new UsageError('--circulating-supply must be an integer of raw token units');
    }
    change.circulatingSupply = supply === null ? null : BigInt(supply);
  }
  const flags = [
    ['due-diligence', 'dueDiligenceComplete'],
    ['fee-on-transfer', 'isFeeOnTransfer'],
    ['known', 'isKnown'],
    ['default', 'isDefault'],
  ] as const;
  for (const [option, field] of flags) {
    const value = values[option];
    if (value !== undefined) change[field] = value;
  }
  return change;
}

async function addToken(values: Values, io: OperatorIo): Promise<TokenRecord> {
  const id = need(values, 'id');
  if (!isLedgerId(id)) throw new UsageError('--id must be a ledger id such as 0.0.123456');
  const symbol = need(values, 'symbol');
  if (!SYMBOL.test(symbol)) throw new UsageError('--symbol must be 1 to 16 letters, digits or .+-');
  const name = need(values, 'name');
  if (name.length > 64) throw new UsageError('--name must be at most 64 characters');
  const decimals = wholeNumber(need(values, 'decimals'), 'decimals', 36);
  assertTokenDecimals(decimals);
  const evm = optional(values, 'evm') ?? longZeroAddress(id);
  if (!isEvmAddress(evm)) throw new UsageError('--evm must be a 0x-prefixed 20-byte address');
  const listing = listingChange(values);
  return io.store.tokens.insert(
    {
      id,
      evmAddress: evm.toLowerCase(),
      symbol,
      name,
      decimals,
      icon: listing.icon ?? null,
      description: listing.description ?? null,
      website: listing.website ?? null,
      sentinelReport: listing.sentinelReport ?? null,
      twitterHandle: listing.twitterHandle ?? null,
      circulatingSupply: listing.circulatingSupply ?? null,
      dueDiligenceComplete: listing.dueDiligenceComplete ?? false,
      isFeeOnTransfer: listing.isFeeOnTransfer ?? false,
      isKnown: listing.isKnown ?? false,
      isDefault: listing.isDefault ?? false,
    },
    io.clock.now(),
  );
}

async function updateToken(values: Values, io: OperatorIo): Promise<TokenRecord> {
  const id = need(values, 'id');
  const change = listingChange(values);
  if (Object.keys(change).length === 0) throw new UsageError('token update needs at least one listing option');
  const token = await io.store.tokens.update(id, change, io.clock.now());
  if (token === undefined) throw new UsageError(`no token ${id}`);
  return token;
}

const NETWORKS: readonly Network[] = ['devnet', 'testnet', 'mainnet'];
/** Largest monthly quota: any count the store and the headers carry exactly. */
const MAX_QUOTA = 1_000_000_000_000;

/** A key as the operator sees it: never its hash, which identifies it as well as the key does. */
function apiKeyView(key: ApiKeyRecord) {
  const { keyHash: _hash, ...view } = key;
  return view;
}

function describeApiKey(key: ApiKeyRecord): string {
  return `${key.id}\t${key.status}\t${key.environment}\t${key.monthlyQuota}/month${key.overageAllowed ? ' +overage' : ''}\t${key.name}`;
}

async function issueApiKey(values: Values, io: OperatorIo): Promise<{ key: string; record: ApiKeyRecord }> {
  const name = need(values, 'name');
  if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
  const quotaText = need(values, 'quota');
  if (!/^[1-9][0-9]{0,12}$/.test(quotaText) || Number(quotaText) > MAX_QUOTA) {
    throw new UsageError(`--quota must be a whole number from 1 to ${MAX_QUOTA}`);
  }
  const environment = optional(values, 'environment') ?? io.network;
  if (!(NETWORKS as readonly string[]).includes(environment))
    throw new UsageError('--environment must be devnet, testnet or mainnet');
  const key = newApiKey();
  const record = await io.store.apiKeys.insert(
    {
      keyHash: hashApiKey(key),
      name,
      monthlyQuota: Number(quotaText),
      overageAllowed: values.overage === true,
      environment: environment as Network,
    },
    io.clock.now(),
  );
  return { key, record };
}

/** The key an argument names: its id, or the key itself (looked up by hash). */
async function findApiKey(reference: string | undefined, command: string, io: OperatorIo): Promise<ApiKeyRecord> {
  if (reference === undefined) throw new UsageError(`apikey ${command} needs a key id`);
  const key = isApiKey(reference)
    ? await io.store.apiKeys.byHash(hashApiKey(reference))
    : /^[1-9][0-9]{0,14}$/.test(reference)
      ? await io.store.apiKeys.get(Number(reference))
      : undefined;
  if (key === undefined) throw new UsageError(`no API key ${isApiKey(reference) ? 'with that key' : reference}`);
  return key;
}

/** Status changes of a key: which states each command moves from, and to what. */
const API_KEY_CHANGES: Record<string, { from: readonly ApiKeyStatus[]; to: ApiKeyStatus }> = {
  revoke: { from: ['ACTIVE', 'SUSPENDED'], to: 'REVOKED' },
  suspend: { from: ['ACTIVE'], to: 'SUSPENDED' },
  resume: { from: ['SUSPENDED'], to: 'ACTIVE' },
};

async function changeApiKey(action: string, reference: string | undefined, io: OperatorIo): Promise<ApiKeyRecord | string> {
  const change = API_KEY_CHANGES[action] as { from: readonly ApiKeyStatus[]; to: ApiKeyStatus };
  const key = await findApiKey(reference, action, io);
  const changed = await io.store.apiKeys.changeStatus(key.id, change.from, change.to, io.clock.now());
  return changed ?? `API key ${key.id} is ${key.status}; ${action} applies to ${change.from.join(' or ')} keys`;
}

async function apiKeyUsage(reference: string | undefined, io: OperatorIo) {
  const key = await findApiKey(reference, 'usage', io);
  const month = monthOf(io.clock.now());
  const months = await io.store.apiKeys.usage(key.id);
  const requests = months.find((usage) => usage.monthStart === month.start)?.requests ?? 0;
  return {
    key: apiKeyView(key),
    month: new Date(month.start).toISOString().slice(0, 7),
    requests,
    limit: key.monthlyQuota,
    remaining: Math.max(0, key.monthlyQuota - requests),
    additional: key.overageAllowed ? Math.max(0, requests - key.monthlyQuota) : 0,
    resetsAt: month.end,
    months: months.map((usage) => ({ month: new Date(usage.monthStart).toISOString().slice(0, 7), requests: usage.requests })),
  };
}

async function addBook(values: Values, io: OperatorIo): Promise<BookRecord> {
  const tokens = await io.store.tokens.list();
  const base = findToken(tokens, need(values, 'base'), 'base');
  const quote = findToken(tokens, need(values, 'quote'), 'quote');
  if (base.id === quote.id) throw new UsageError('--base and --quote must be different tokens');
  const grid = {
    tickStep: need(values, 'tick-step'),
    sizeStep: need(values, 'size-step'),
    lotSize: need(values, 'lot-size'),
    minNotional: need(values, 'min-notional'),
  };
  // Refuse a grid on which fills would need rounding, before it reaches the store.
  new MarketGrid({ ...grid, baseDecimals: base.decimals, quoteDecimals: quote.decimals });
  return io.store.books.insert(
    {
      baseTokenId: base.id,
      quoteTokenId: quote.id,
      isAmmEnabled: values.amm === true,
      ...grid,
      takerFeePips: wholeNumber(
        optional(values, 'taker-fee-pips') ?? String(DEFAULT_FEES.takerFeePips),
        'taker-fee-pips',
        MAX_PIPS,
      ),
      makerFeePips: wholeNumber(
        optional(values, 'maker-fee-pips') ?? String(DEFAULT_FEES.makerFeePips),
        'maker-fee-pips',
        MAX_PIPS,
      ),
    },
    io.clock.now(),
  );
}

const BOOK_CHANGES: Record<string, { status?: BookStatus; isHalted?: boolean }> = {
  open: { status: 'OPEN' },
  close: { status: 'CLOSED' },
  halt: { isHalted: true },
  resume: { isHalted: false },
};

async function changeBook(action: string, idText: string | undefined, io: OperatorIo): Promise<BookRecord> {
  const change = BOOK_CHANGES[action];
  if (change === undefined) throw new UsageError(`unknown book command "${action}"`);
  if (idText === undefined || !/^[0-9]{1,15}$/.test(idText)) throw new UsageError(`book ${action} needs a book id`);
  const book = await io.store.books.update(Number(idText), change, io.clock.now());
  if (book === undefined) throw new UsageError(`no book ${idText}`);
  return book;
}

const KEY_TYPES = new Map<string, AccountKeyType>([
  ['ed25519', 'ED25519'],
  ['secp256k1', 'ECDSA_SECP256K1'],
]);

function keyType(values: Values): AccountKeyType {
  const type = KEY_TYPES.get(need(values, 'key-type').toLowerCase());
  if (type === undefined) throw new UsageError('--key-type must be ed25519 or secp256k1');
  return type;
}

function describeAccount(account: AccountKeyRecord): string {
  return `${account.accountId}\t${account.keyType}\t${account.evmAddress}\t${account.publicKey}`;
}

async function addAccount(values: Values, io: OperatorIo): Promise<AccountKeyRecord> {
  const id = need(values, 'id');
  if (!isLedgerId(id)) throw new UsageError('--id must be a ledger id such as 0.0.123456');
  const type = keyType(values);
  const publicKey = parsePublicKeyHex(type, need(values, 'public-key'));
  // Tokens and accounts share the ledger's numbers; an ED25519 account would take the token's address.
  if ((await io.store.tokens.list()).some((token) => token.id === id)) throw new UsageError(`--id ${id} is a token`);
  return new DevnetAccountKeys(io.store.accountKeys).register(id, type, publicKey, io.clock.now());
}

/** The devnet faucet: a fresh key pair under the next free id; only the key file ever sees the private key. */
async function createAccount(values: Values, io: OperatorIo): Promise<AccountKeyRecord> {
  const type = keyType(values);
  const keyFile = need(values, 'key-file');
  const tokenIds = new Set((await io.store.tokens.list()).map((token) => token.id));
  const { secretKey, publicKey } = generateKeyPair(type);
  try {
    await writeFile(keyFile, `${Buffer.from(secretKey).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const exists = (error as { code?: unknown }).code === 'EEXIST';
    throw exists ? new UsageError(`--key-file ${keyFile} exists; it is never overwritten`) : error;
  } finally {
    secretKey.fill(0);
  }
  try {
    return await new DevnetAccountKeys(io.store.accountKeys).registerNew(type, publicKey, io.clock.now(), tokenIds);
  } catch (error) {
    // The key of an account that was never registered is of no use to anyone.
    await rm(keyFile, { force: true });
    throw error;
  }
}

const DEFAULT_FUNDING = 1_000;

/** Whole units of each token to fund with: --amount, else 1,000. */
function fundingAmount(values: Values): number {
  return values.amount === undefined ? DEFAULT_FUNDING : wholeNumber(values.amount, 'amount', 1_000_000_000);
}

interface Funding {
  readonly account: string;
  readonly address: string;
  /** Whole units of each token. */
  readonly amount: number;
  readonly tokens: string[];
}

/** Mints `amount` whole units of every registry token to the account and approves the reactor. */
async function fund(record: { account: string; address: string }, amount: number, io: OperatorIo, issuer: DevnetIssuer) {
  const tokens = await io.store.tokens.list();
  await issuer.fund(
    record.address,
    tokens.map((token) => ({ token: token.evmAddress, amount: BigInt(amount) * 10n ** BigInt(token.decimals) })),
  );
  return { ...record, amount, tokens: tokens.map((token) => token.symbol) };
}

async function connectDevnet(io: OperatorIo): Promise<DevnetIssuer> {
  if (io.network !== 'devnet' || io.devnet === undefined) throw new UsageError('funding exists on the devnet only');
  try {
    return await io.devnet();
  } catch (error) {
    if (error instanceof DevnetNotRunningError) throw new UsageError(error.message);
    throw error;
  }
}

async function fundAccount(values: Values, io: OperatorIo): Promise<Funding> {
  const account = normaliseAccountId(need(values, 'account'));
  if (account === undefined) throw new UsageError('--account must be a ledger id (0.0.X) or a 0x address');
  const amount = fundingAmount(values);
  let address = account;
  if (!account.startsWith('0x')) {
    const key = await io.store.accountKeys.get(account);
    if (key === undefined) throw new UsageError(`no devnet account ${account}`);
    address = key.evmAddress;
  }
  return fund({ account, address }, amount, io, await connectDevnet(io));
}

/** Funds a created account when the devnet chain runs; says so on stderr when it does not. */
async function fundCreated(record: AccountKeyRecord, values: Values, io: OperatorIo): Promise<Funding | null> {
  const amount = fundingAmount(values);
  let issuer: DevnetIssuer;
  try {
    issuer = await connectDevnet(io);
  } catch (error) {
    io.err(`not funded: ${error instanceof Error ? error.message : String(error)}; run account fund once the service runs`);
    return null;
  }
  await issuer.publishKey(record);
  return fund({ account: record.accountId, address: record.evmAddress }, amount, io, issuer);
}

/** The account and book a fee override is about: the account as the API names it, an existing book. */
async function feeTarget(values: Values, io: OperatorIo): Promise<{ account: string; bookId: number }> {
  const account = normaliseAccountId(need(values, 'account'));
  if (account === undefined) throw new UsageError('--account must be a ledger id (0.0.X) or a 0x address');
  const bookText = need(values, 'book');
  const books = await io.store.books.list();
  const bookId = parseBookId(bookText);
  const book = books.find((candidate) => candidate.id === bookId);
  if (book === undefined) throw new UsageError(`--book: no book ${bookText}`);
  return { account, bookId: book.id };
}

function describeFee(fee: FeeOverride): string {
  return `${fee.account}	book ${fee.bookId}	taker ${fee.takerFeePips} maker ${fee.makerFeePips} pips`;
}

/** Runs one operator command; returns the process exit code (0 ok, 1 refused, 2 usage). */
export async function runOperator(argv: readonly string[], io: OperatorIo): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, allowNegative: true, strict: true });
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    io.err(OPERATOR_USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  const [area, action, argument] = positionals;
  // Raw amounts (bigint) print as decimal strings, as on the wire.
  const json = (value: unknown) =>
    JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
  const print = (value: unknown, text: string) => io.out(values.json ? json(value) : text);
  if (values.help || area === undefined) {
    io.out(OPERATOR_USAGE);
    return area === undefined && !values.help ? 2 : 0;
  }
  try {
    const command = `${area} ${action ?? ''}`.trim();
    switch (command) {
      case 'token add': {
        const token = await addToken(values, io);
        print(token, `added token ${token.id} ${token.symbol} (${token.decimals} decimals) at ${token.evmAddress}`);
        return 0;
      }
      case 'token update': {
        const token = await updateToken(values, io);
        print(token, `updated token ${token.id} ${token.symbol}`);
        return 0;
      }
      case 'token list': {
        const tokens = await io.store.tokens.list();
        print(
          tokens,
          tokens.map((token) => `${token.id}\t${token.symbol}\t${token.decimals}\t${token.evmAddress}\t${token.name}`).join('\n'),
        );
        return 0;
      }
      case 'book add': {
        const book = await addBook(values, io);
        print(book, `added book ${describeBook(book)}`);
        return 0;
      }
      case 'book list': {
        const books = await io.store.books.list();
        print(books, books.map(describeBook).join('\n'));
        return 0;
      }
      case 'account add': {
        const account = await addAccount(values, io);
        print(account, `added account ${describeAccount(account)}`);
        return 0;
      }
      case 'account create': {
        const account = await createAccount(values, io);
        const funded = values.fund === false ? null : await fundCreated(account, values, io);
        print(
          { ...account, keyFile: values['key-file'], funded },
          `created account ${account.accountId}\nkey type     ${account.keyType}\npublic key   ${account.publicKey}\nEVM address  ${account.evmAddress}\nprivate key  written to ${values['key-file']}${
            funded === null ? '' : `\nfunded with  ${funded.amount} of ${funded.tokens.join(', ')}`
          }`,
        );
        return 0;
      }
      case 'account fund': {
        const funded = await fundAccount(values, io);
        print(funded, `funded ${funded.account} (${funded.address}) with ${funded.amount} of ${funded.tokens.join(', ')}`);
        return 0;
      }
      case 'account list': {
        const accounts = await io.store.accountKeys.list();
        print(accounts, accounts.map(describeAccount).join('\n'));
        return 0;
      }
      case 'fee set': {
        const fee: FeeOverride = {
          ...(await feeTarget(values, io)),
          takerFeePips: wholeNumber(need(values, 'taker-fee-pips'), 'taker-fee-pips', MAX_PIPS),
          makerFeePips: wholeNumber(need(values, 'maker-fee-pips'), 'maker-fee-pips', MAX_PIPS),
          updatedAt: io.clock.now(),
        };
        await io.store.feeOverrides.set(fee);
        print(fee, `set fees ${describeFee(fee)}`);
        return 0;
      }
      case 'fee clear': {
        const { account, bookId } = await feeTarget(values, io);
        const cleared = await io.store.feeOverrides.clear(account, bookId);
        print({ cleared }, cleared ? `cleared the fees of ${account} on book ${bookId}` : 'no such fee override');
        return cleared ? 0 : 1;
      }
      case 'fee list': {
        const fees = await io.store.feeOverrides.list();
        print(fees, fees.map(describeFee).join('\n'));
        return 0;
      }
      case 'devnet seed': {
        const seeded = await seedDevnet(io.store, io.clock.now());
        print({ seeded }, seeded ? 'created the devnet markets' : 'the store already has tokens; nothing seeded');
        return seeded ? 0 : 1;
      }
      case 'apikey issue': {
        const { key, record } = await issueApiKey(values, io);
        print(
          { ...apiKeyView(record), key },
          `issued API key ${describeApiKey(record)}\nkey  ${key}\nThis is the only time the key is shown; the store keeps only its SHA-256.`,
        );
        return 0;
      }
      case 'apikey list': {
        const keys = await io.store.apiKeys.list();
        print(keys.map(apiKeyView), keys.map(describeApiKey).join('\n'));
        return 0;
      }
      case 'apikey usage': {
        const usage = await apiKeyUsage(argument, io);
        print(
          usage,
          [
            `API key ${usage.key.id} (${usage.key.name}), ${usage.month}: ${usage.requests} requests, ${usage.remaining} of ${usage.limit} left, ${usage.additional} additional; resets ${new Date(usage.resetsAt).toISOString()}`,
            ...usage.months.map((month) => `${month.month}\t${month.requests}`),
          ].join('\n'),
        );
        return 0;
      }
      default: {
        if (area === 'apikey' && action !== undefined && action in API_KEY_CHANGES) {
          const changed = await changeApiKey(action, argument, io);
          if (typeof changed === 'string') {
            io.err(changed);
            return 1;
          }
          print(apiKeyView(changed), `API key ${describeApiKey(changed)}`);
          return 0;
        }
        if (area === 'book' && action !== undefined && action in BOOK_CHANGES) {
          const book = await changeBook(action, argument, io);
          print(book, `book ${describeBook(book)}`);
          return 0;
        }
        throw new UsageError(`unknown command "${command}"`);
      }
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof InvalidAccountKeyError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof StoreConflictError || error instanceof CoreError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}
