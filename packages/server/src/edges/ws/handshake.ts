import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AccessTokens } from '../../application/auth/access-tokens.js';
import type { MarketRegistry } from '../../application/markets/market-registry.js';
import { AppError } from '../../domain/errors.js';
import { single } from '../../domain/query-values.js';
import { writeRawError } from '../http/client-errors.js';
import { redactUrl } from '../redact-url.js';
import type { StreamName } from './protocol.js';

/** What an accepted handshake grants: the account and the books it follows (null: every book). */
export interface StreamGrant {
  readonly account: string;
  readonly books: readonly number[] | null;
  /** `welcome=true`: the WELCOME message goes first, for clients that cannot read the upgrade's headers. */
  readonly welcome: boolean;
  /** `cancelOnDisconnect=true` (user events only): the account's open orders on `books` are cancelled when the connection is lost. */
  readonly cancelOnDisconnect: boolean;
}

export interface HandshakeRules {
  readonly tokens: AccessTokens;
  readonly registry: MarketRegistry;
  readonly maxBooks: number;
}

/** Longest piece of a request echoed back in an error message. */
const MAX_ECHOED = 32;

/** The request target as a URL; an unparseable one names no stream. */
export function requestUrl(request: IncomingMessage): URL | undefined {
  try {
    return new URL(request.url ?? '/', 'http://stream.invalid');
  } catch {
    return undefined;
  }
}

/** The client's address: the first X-Forwarded-For entry behind a trusted proxy (as Fastify reads it), else the peer. */
export function clientAddress(request: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? request.headers['x-forwarded-for'] : undefined;
  const first = typeof forwarded === 'string' ? forwarded.split(',')[0]?.trim() : undefined;
  return first === undefined || first === '' ? (request.socket.remoteAddress ?? 'unknown') : first;
}

/** A query parameter given at most once (a repeated one is ambiguous and refused). */
function parameter(url: URL, name: string): string | undefined {
  const values = url.searchParams.getAll(name);
  return single(values.length === 0 ? undefined : values, name);
}

/** A yes/no query parameter: `true` or `1`, `false` or `0`; absent is no. */
function flag(url: URL, name: string): boolean {
  const text = parameter(url, name);
  if (text === undefined || text === 'false' || text === '0') return false;
  if (text === 'true' || text === '1') return true;
  throw new AppError('VALIDATION_FAILED', `${name} must be true, 1, false or 0`);
}

function echo(text: string): string {
  // A credential sent in the wrong parameter is never echoed (the message is logged too).
  const shown = redactUrl(text);
  return shown.length > MAX_ECHOED ? `${shown.slice(0, MAX_ECHOED)}…` : shown;
}

/** `books`: a comma-separated list of book ids; required for depth, absent means every book for user events. */
function booksOf(url: URL, stream: StreamName, rules: HandshakeRules): number[] | null {
  const text = parameter(url, 'books');
  if (text === undefined || text.trim() === '') {
    if (stream === 'user-events') return null;
    throw new AppError('MISSING_PARAMETER', 'books must name at least one order book id (books=1,2)');
  }
  const books = new Set<number>();
  for (const part of text.split(',').map((item) => item.trim())) {
    const market = part === '' ? undefined : rules.registry.find(part);
    if (market === undefined) throw new AppError('UNKNOWN_ORDERBOOK', `Unknown order book "${echo(part)}" in books`);
    // Depth of a closed book has no snapshot to start from (GET /depth answers 404).
    if (stream === 'depth' && market.book.status !== 'OPEN') {
      throw new AppError('MARKET_CLOSED', `Order book ${market.book.id} is closed`);
    }
    books.add(market.book.id);
  }
  if (books.size > rules.maxBooks) {
    throw new AppError('TOO_MANY_BOOKS', `A connection may follow at most ${rules.maxBooks} order books`);
  }
  return [...books];
}

/**
 * Checks a stream request the way the spec asks: the JWT in `token` is verified here and only
 * here (a connection may outlive it), then the books and the options. Throws the catalogue error
 * that refuses the upgrade: 401 for a missing or bad token, 400 for books and options.
 */
export async function authorizeStream(url: URL, stream: StreamName, rules: HandshakeRules): Promise<StreamGrant> {
  const token = parameter(url, 'token');
  if (token === undefined || token === '') {
    throw new AppError('MISSING_AUTHORIZATION', 'The token query parameter must carry an access token');
  }
  const { account } = await rules.tokens.verify(token);
  const books = booksOf(url, stream, rules);
  const cancelOnDisconnect = flag(url, 'cancelOnDisconnect');
  // The depth stream shows none of the account's orders: the switch belongs with the stream that does.
  if (cancelOnDisconnect && stream === 'depth') {
    throw new AppError('VALIDATION_FAILED', 'cancelOnDisconnect is an option of /ws/user-events, not /ws/depth');
  }
  return { account, books, welcome: flag(url, 'welcome'), cancelOnDisconnect };
}

/** Answers a refused upgrade with the catalogue's JSON error body, then closes the socket. */
export function refuseUpgrade(socket: Duplex, error: AppError): void {
  writeRawError(socket, error);
}
