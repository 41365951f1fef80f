import {
  getOpenOrders,
  getOrders,
  type OrderListItem,
  type OrderStatus,
  type StreamStatus,
  TERMINAL_STATUSES,
  watchUserEvents,
} from '@dex/sdk';
import { useEffect, useState } from 'preact/hooks';
import type { Account } from '../account/account-store.js';

/** Ended orders shown under the open ones. */
const HISTORY_LENGTH = 20;
const ENDED: OrderStatus[] = [...TERMINAL_STATUSES];

export interface AccountOrders {
  /** Undefined until the first listing. */
  readonly open: readonly OrderListItem[] | undefined;
  readonly ended: readonly OrderListItem[] | undefined;
  /** The user-event stream's state: `live` while every event reaches the page. */
  readonly stream: StreamStatus;
  readonly error: unknown;
}

interface Listing {
  readonly open: OrderListItem[];
  readonly ended: OrderListItem[];
}

async function readListing(account: Account, orderbookId: string): Promise<Listing> {
  const [open, ended] = await Promise.all([
    getOpenOrders(account.client, { orderbookId }),
    getOrders(account.client, { orderbookId, status: ENDED, limit: HISTORY_LENGTH }),
  ]);
  return { open, ended: ended.orders };
}

/**
 * Runs `read` again after each `poke`, one read at a time: pokes during a read make one more read
 * after it, so the last state always lands and a burst of events costs two reads, not one each.
 */
function coalesced(read: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    running = true;
    do {
      again = false;
      await read();
    } while (again);
    running = false;
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}

/**
 * The account's open and recently ended orders on a book, kept live by `/ws/user-events`: each event
 * moves the order's status at once, then the listings are read again for the rest of its fields.
 */
export function useAccountOrders(account: Account, orderbookId: string): AccountOrders {
  const [state, setState] = useState<AccountOrders>({
    open: undefined,
    ended: undefined,
    stream: 'connecting',
    error: undefined,
  });
  useEffect(() => {
    let stopped = false;
    const refresh = coalesced(async () => {
      try {
        const listing = await readListing(account, orderbookId);
        if (!stopped) setState((previous) => ({ ...previous, ...listing, error: undefined }));
      } catch (error) {
        if (!stopped) setState((previous) => ({ ...previous, error }));
      }
    });
    // A server that does not say the filled amount (the live service) leaves it to the listing read next.
    const moved = (orderId: string, status: OrderStatus, filledAmount: string | undefined) =>
      setState((previous) => ({
        ...previous,
        open: previous.open?.map((order) =>
          String(order.id) === orderId ? { ...order, status, filledAmount: filledAmount ?? order.filledAmount } : order,
        ),
      }));
    const stream = watchUserEvents(account.client, {
      books: [orderbookId],
      onEvent: (event) => {
        moved(event.orderId, event.status, event.filledAmount);
        refresh();
      },
      onStatus: (status) => {
        setState((previous) => ({ ...previous, stream: status }));
        // Each sync may follow missed events: read the listings again.
        if (status === 'live') refresh();
      },
      onError: (error) => setState((previous) => ({ ...previous, error })),
    });
    refresh();
    return () => {
      stopped = true;
      void stream.close();
    };
  }, [account, orderbookId]);
  return state;
}
