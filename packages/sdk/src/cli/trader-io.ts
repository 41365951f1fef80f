import type { FetchFn } from '../client.js';

/** Everything the trader CLI takes from its process, injected so that it runs in-process in tests. */
export interface TraderIo {
  /** Writes to standard output; a line ending is added. */
  readonly out: (text: string) => void;
  /** Writes to standard error; a line ending is added. */
  readonly err: (text: string) => void;
  /** The environment: DEX_API_URL, DEX_PRIVATE_KEY, DEX_KEY_FILE, DEX_ACCOUNT, DEX_KEY_TYPE, DEX_STATE_DIR... */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Unix ms: decides whether a stored session is still good, and order deadlines. */
  readonly now: () => number;
  /** Defaults to the global `fetch`. */
  readonly fetch?: FetchFn | undefined;
  /** Whether standard output is a terminal: `depth --watch` redraws in place only then. */
  readonly isTerminal?: boolean | undefined;
  /** Aborted on SIGINT: `depth --watch` stops and returns 0; any other command abandons its requests and returns 130. */
  readonly signal?: AbortSignal | undefined;
}
