import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isBearerToken } from '../auth/login.js';

/** A login kept between runs: the access token of one account on one server. */
export interface StoredSession {
  readonly baseUrl: string;
  readonly account: string;
  /** A credential: written to a file of mode 600 and nowhere else. */
  readonly token: string;
  /** Unix ms, from the token; null when the token does not say. */
  readonly expiresAt: number | null;
}

/** A session this close to its expiry is not used: the SDK would renew it at once anyway. */
const EXPIRY_MARGIN_MS = 30_000;

/** `${DEX_STATE_DIR:-${XDG_STATE_HOME:-~/.local/state}/dex-trade}`. */
export function stateDirectory(env: Readonly<Record<string, string | undefined>>): string {
  if (env.DEX_STATE_DIR) return env.DEX_STATE_DIR;
  const stateHome = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(stateHome, 'dex-trade');
}

/** One file per server and account; the name is a digest, so neither needs escaping. */
export function sessionFile(directory: string, baseUrl: string, account: string): string {
  const digest = createHash('sha256').update(`${baseUrl}\n${account}`).digest('hex').slice(0, 32);
  return join(directory, 'sessions', `${digest}.json`);
}

function isStoredSession(value: unknown, baseUrl: string, account: string): value is StoredSession {
  const session = value as Partial<StoredSession> | null;
  return (
    typeof session === 'object' &&
    session !== null &&
    session.baseUrl === baseUrl &&
    session.account === account &&
    isBearerToken(session.token) &&
    (session.expiresAt === null || Number.isSafeInteger(session.expiresAt))
  );
}

/** The stored session of this account on this server; undefined when there is none or it is unreadable. */
export async function readSession(directory: string, baseUrl: string, account: string): Promise<StoredSession | undefined> {
  let text: string;
  try {
    text = await readFile(sessionFile(directory, baseUrl, account), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    return isStoredSession(value, baseUrl, account) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a stored session can still be sent at `now` (unix ms). */
export function isUsable(session: StoredSession, now: number): boolean {
  return session.expiresAt === null || now < session.expiresAt - EXPIRY_MARGIN_MS;
}

/**
 * Stores a session in a file of mode 600 inside a directory of mode 700, replacing the previous one
 * in one rename so that a reader never sees half a file. Returns the file's path.
 */
export async function writeSession(directory: string, session: StoredSession): Promise<string> {
  const file = sessionFile(directory, session.baseUrl, session.account);
  const folder = join(directory, 'sessions');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing folder's mode alone.
  await chmod(folder, 0o700);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(session)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  return file;
}

/** Deletes the stored session; false when there was none. */
export async function deleteSession(directory: string, baseUrl: string, account: string): Promise<boolean> {
  const file = sessionFile(directory, baseUrl, account);
  try {
    await rm(file);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return false;
    throw error;
  }
}
