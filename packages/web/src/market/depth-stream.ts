import { type Client, type DepthSnapshot, type SdkError, type StreamHandle, watchDepth } from '@dex/sdk';
import { depthOfView } from './stream-depth.js';

/** Failed connections in a row after which the stream is given up for polling. */
const STREAM_ATTEMPTS = 6;

export interface DepthStreamHandlers {
  readonly onDepth: (depth: DepthSnapshot) => void;
  readonly onError: (error: SdkError) => void;
  /** The stream gave up for good. */
  readonly onFailed: (error: SdkError) => void;
}

/**
 * One book from `/ws/depth` by the SDK's reliable procedure, each change handed over in the shape of
 * a `GET /depth` answer. A module of its own: the page loads the stream code only once logged in.
 */
export function startDepthStream(
  client: Client,
  orderbookId: string,
  tokens: Pick<DepthSnapshot, 'baseTokenId' | 'quoteTokenId'>,
  handlers: DepthStreamHandlers,
): StreamHandle {
  const stream = watchDepth(client, {
    books: [orderbookId],
    retry: { maxAttempts: STREAM_ATTEMPTS },
    onBook: (view) => handlers.onDepth(depthOfView(view, tokens)),
    onError: handlers.onError,
  });
  void stream.closed.then((error) => {
    if (error !== undefined) handlers.onFailed(error);
  });
  return stream;
}
