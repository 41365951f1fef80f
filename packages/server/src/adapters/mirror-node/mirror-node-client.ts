/** A mirror node answer is a few KiB; anything far larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface MirrorNodeClientOptions {
  /** The mirror node's REST root, e.g. `https://mainnet-public.mirrornode.hedera.com`; a path prefix and query are kept. */
  readonly baseUrl: string;
  readonly fetch?: typeof fetch;
  /** For the whole exchange, body included. Default 3000. */
  readonly timeoutMs?: number;
}

/** The mirror node gave no usable answer: down, slow, redirected elsewhere, or nonsense. */
export class MirrorNodeError extends Error {
  override readonly name = 'MirrorNodeError';
}

/** Reads a body up to MAX_BODY_BYTES, so a broken or hostile upstream cannot fill memory. */
async function readBody(response: Response): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new MirrorNodeError(`the mirror node sent more than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GET requests to a ledger mirror node's REST API: bounded in time and size, redirects followed on
 * the same host only (never carrying the request, and whatever credentials the base URL holds,
 * elsewhere).
 */
export class MirrorNodeClient {
  private readonly base: URL;
  private readonly fetch: typeof fetch;
  readonly timeoutMs: number;

  constructor(options: MirrorNodeClientOptions) {
    this.base = new URL(options.baseUrl);
    if (this.base.protocol !== 'https:' && this.base.protocol !== 'http:') {
      throw new Error('the mirror node URL must be http or https');
    }
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 3_000;
  }

  /**
   * The parsed body of `GET {base}/api/v1/{path}`, or undefined when the mirror node does not know
   * the entity (404). `what` names the entity in errors ("account 0.0.5001"). The caller makes sure
   * `path` holds nothing a client chose beyond a validated id.
   */
  async get(path: string, what: string, query: Readonly<Record<string, string>> = {}): Promise<unknown> {
    let url = new URL(this.base);
    url.pathname = `${this.base.pathname.replace(/\/+$/, '')}/api/v1/${path}`;
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await this.fetch(url, { signal, redirect: 'manual', headers: { accept: 'application/json' } });
        if (response.status === 200) return JSON.parse(await readBody(response));
        await response.body?.cancel();
        if (response.status === 404) return undefined;
        const location = response.headers.get('location');
        if (!REDIRECT_STATUSES.has(response.status) || location === null) {
          throw new MirrorNodeError(`the mirror node answered ${response.status} for ${what}`);
        }
        const next = new URL(location, url);
        if (next.origin !== url.origin) throw new MirrorNodeError('the mirror node redirected to another host');
        if (redirects >= MAX_REDIRECTS) throw new MirrorNodeError('the mirror node redirected too often');
        url = next;
      }
    } catch (error) {
      if (error instanceof MirrorNodeError) throw error;
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs} ms`
          : error instanceof SyntaxError
            ? 'the body is not JSON'
            : 'the request failed';
      throw new MirrorNodeError(`the mirror node could not be asked for ${what}: ${reason}`, { cause: error });
    }
  }
}
