import { buildUrl, type Endpoint } from '../transport.js';
import type { StreamName } from './messages.js';

/** What stands for the token wherever a stream URL is shown (errors): the URL itself carries a credential. */
const REDACTED = 'redacted';

export interface StreamAddress {
  /** The URL to connect to; it holds the access token, so it is never shown. */
  readonly url: string;
  /** The same URL with the token replaced: the one errors carry. */
  readonly shownUrl: string;
}

/**
 * `ws(s)://<base>/ws/<stream>?books=1,2&welcome=true[&cancelOnDisconnect=true]&token=<jwt>` for a
 * client whose base URL is http(s). `welcome=true` asks for the connection's metadata as a first message (see
 * `openStreamSocket`); servers without it send none, or always send it.
 */
export function streamAddress(
  endpoint: Pick<Endpoint, 'baseUrl'>,
  stream: StreamName,
  token: string,
  books: readonly number[] | null,
  cancelOnDisconnect = false,
): StreamAddress {
  const at = (shownToken: string) =>
    buildUrl(endpoint, {
      path: ['ws', stream],
      query: {
        books: books === null ? undefined : books.join(','),
        welcome: 'true',
        cancelOnDisconnect: cancelOnDisconnect ? 'true' : undefined,
        token: shownToken,
      },
    }).replace(/^http/, 'ws');
  return { url: at(token), shownUrl: at(REDACTED) };
}
