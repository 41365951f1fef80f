import { type Client, type DepthSnapshot, getDepth, type OrderbookItem, type StreamHandle } from '@dex/sdk';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { client as anonymousClient } from '../client.js';
import { type Polled, usePolling } from '../polling.js';

/** Anonymous visitors poll the book twice a second, so the ladder is never a second behind. */
const DEPTH_INTERVAL_MS = 500;
const loadDepthStream = () => import('./depth-stream.js');

export interface DepthFeed extends Polled<DepthSnapshot> {
  /** Where the data comes from now. */
  readonly source: 'stream' | 'polling';
}

type Tokens = Pick<OrderbookItem, 'baseTokenId' | 'quoteTokenId'>;

/** The book from `/ws/depth` (the SDK's reliable procedure) while `client` is set; `failed` once it gave up for good. */
function useStreamedDepth(client: Client | undefined, orderbookId: string, tokens: Tokens | undefined) {
  const [state, setState] = useState<Polled<DepthSnapshot> & { failed: boolean }>({
    data: undefined,
    error: undefined,
    updatedAt: undefined,
    failed: false,
  });
  const baseTokenId = tokens?.baseTokenId;
  const quoteTokenId = tokens?.quoteTokenId;
  useEffect(() => {
    setState({ data: undefined, error: undefined, updatedAt: undefined, failed: false });
    if (client === undefined || baseTokenId === undefined || quoteTokenId === undefined) return;
    let stream: StreamHandle | undefined;
    let stopped = false;
    const failed = (error: unknown) => setState((previous) => ({ ...previous, error, failed: true }));
    loadDepthStream()
      .then(({ startDepthStream }) => {
        if (stopped) return;
        stream = startDepthStream(
          client,
          orderbookId,
          { baseTokenId, quoteTokenId },
          {
            onDepth: (data) => setState({ data, error: undefined, updatedAt: Date.now(), failed: false }),
            onError: (error) => setState((previous) => ({ ...previous, error })),
            onFailed: failed,
          },
        );
      })
      .catch(failed);
    return () => {
      stopped = true;
      void stream?.close();
    };
  }, [client, orderbookId, baseTokenId, quoteTokenId]);
  return state;
}

/**
 * The book's depth: streamed for a logged-in account (the stream needs a login), polled for an
 * anonymous visitor, and polled again if the stream fails for good.
 */
export function useDepthFeed(client: Client | undefined, orderbookId: string, book: Tokens | undefined): DepthFeed {
  const streamed = useStreamedDepth(client, orderbookId, book);
  const streaming = client !== undefined && book !== undefined && !streamed.failed;
  const fetchDepth = useCallback(() => getDepth(anonymousClient, { orderbookId }), [orderbookId]);
  const polled = usePolling(fetchDepth, DEPTH_INTERVAL_MS, !streaming);
  return streaming ? { ...streamed, source: 'stream' } : { ...polled, source: 'polling' };
}
