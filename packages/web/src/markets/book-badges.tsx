import type { OrderbookItem } from '@dex/sdk';
import { bookStates } from './book-label.js';

export function BookBadges({ book }: { readonly book: Pick<OrderbookItem, 'status' | 'isMarketHalted' | 'isAMMEnabled'> }) {
  return (
    <span class="badges">
      {bookStates(book).map((state) => (
        <span key={state.kind} class={`badge badge-${state.kind}`} title={state.description} data-state={state.kind}>
          {state.label}
        </span>
      ))}
    </span>
  );
}
