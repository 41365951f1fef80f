import { type Client, createClient, type FetchFn, normaliseBaseUrl } from '../client.js';
import { createDataClient, type DataClient } from '../data/data-client.js';
import { InvalidParameterError } from '../errors.js';
import { type OptionValues, UsageError } from './arguments.js';
import { type Credentials, loadCredentials } from './credentials.js';
import { jsonLine } from './output.js';
import { isUsable, readSession, stateDirectory } from './session-store.js';
import type { TraderIo } from './trader-io.js';

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

const NEEDS_ACCOUNT =
  'set DEX_PRIVATE_KEY, or DEX_KEY_FILE / --key-file (and DEX_ACCOUNT=0.0.X for a ledger account), or log in first with dex-trade login';

/** What a command works with: its options, the output, the server and who it acts as. */
export class CommandContext {
  readonly io: TraderIo;
  readonly values: OptionValues;
  /** The server's base URL, normalised: `--url`, else DEX_API_URL, else {@link DEFAULT_API_URL}. */
  readonly baseUrl: string;
  /** Where sessions are stored between runs. */
  readonly stateDir: string;
  readonly #fetch: FetchFn;
  #credentials: Promise<Credentials> | undefined;

  constructor(io: TraderIo, values: OptionValues) {
    this.io = io;
    this.values = values;
    const url = values.url ?? (io.env.DEX_API_URL || DEFAULT_API_URL);
    try {
      this.baseUrl = normaliseBaseUrl(url);
    } catch (error) {
      if (error instanceof InvalidParameterError)
        throw new UsageError(`${values.url === undefined ? 'DEX_API_URL' : '--url'}: ${error.message}`);
      throw error;
    }
    this.stateDir = stateDirectory(io.env);
    const fetchFn = io.fetch ?? globalThis.fetch;
    const { signal } = io;
    // Ctrl-C aborts the request under way too; the SDK's own timeout (30 s) still applies.
    this.#fetch =
      signal === undefined
        ? fetchFn
        : (url, init) => fetchFn(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, signal]) : signal });
  }

  get json(): boolean {
    return this.values.json === true;
  }

  /** Prints the API's JSON with `--json`, the plain text otherwise. */
  print(value: unknown, plain: string): void {
    this.io.out(this.json ? jsonLine(value) : plain);
  }

  /** A client without credentials, for the public routes. */
  publicClient(): Client {
    return createClient({ baseUrl: this.baseUrl, fetch: this.#fetch });
  }

  /**
   * A client of the data API: at DEX_DATA_API_URL, else under `/data` on the server, with the
   * operator-issued key of DEX_API_KEY (never read from the command line, never printed).
   */
  dataClient(command: string): DataClient {
    const apiKey = this.io.env.DEX_API_KEY;
    if (apiKey === undefined || apiKey === '') {
      throw new UsageError(`${command} reads the data API: set DEX_API_KEY to the key the operator issued`);
    }
    const baseUrl = this.io.env.DEX_DATA_API_URL || `${this.baseUrl}/data`;
    try {
      return createDataClient({ baseUrl, apiKey, fetch: this.#fetch });
    } catch (error) {
      if (error instanceof InvalidParameterError) throw new UsageError(`${command}: ${error.message}`);
      throw error;
    }
  }

  /** The key and account the environment configures; read once, on first use. */
  credentials(): Promise<Credentials> {
    this.#credentials ??= loadCredentials(this.io.env, this.values['key-file']);
    return this.#credentials;
  }

  /**
   * A client that acts as the account: with its stored session while that is good (no login
   * needed), and with its key, which logs in when there is no session or the server refuses it.
   * Commands that `sign` (orders) need the key even with a stored session.
   */
  async accountClient(command: string, options: { signs?: boolean } = {}): Promise<Client> {
    const { signer, account } = await this.credentials();
    if (options.signs === true && signer === undefined) {
      throw new UsageError(`${command} signs with the account's key: set DEX_PRIVATE_KEY, or DEX_KEY_FILE / --key-file`);
    }
    if (account === undefined) throw new UsageError(`${command} acts as an account: ${NEEDS_ACCOUNT}`);
    const stored = await readSession(this.stateDir, this.baseUrl, account);
    const token = stored !== undefined && isUsable(stored, this.io.now()) ? stored.token : undefined;
    if (token === undefined && signer === undefined) {
      throw new UsageError(
        `${command}: no stored session of ${account} on ${this.baseUrl} is still good, and no key is set: ${NEEDS_ACCOUNT}`,
      );
    }
    return createClient({ baseUrl: this.baseUrl, fetch: this.#fetch, signer, accessToken: token });
  }
}
