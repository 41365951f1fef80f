import type { OrderbookItem } from '@dex/sdk';
import type { ComponentChildren } from 'preact';
import { BookBadges } from '../markets/book-badges.js';
import { baseName, pairLabel, quoteName } from '../markets/book-label.js';
import { PriceChange } from '../markets/price-change.js';
import { shownPrice } from '../markets/shown-price.js';

function Figure({ label, children }: { readonly label: string; readonly children: ComponentChildren }) {
  return (
    <div class="figure">
      <dt>{label}</dt>
      <dd class="num">{children}</dd>
    </div>
  );
}

/** The market's name and its 24 h figures, as `GET /books` gives them. */
export function MarketSummary({ book }: { readonly book: OrderbookItem }) {
  return (
    <header class="market-head">
      <h1>
        {pairLabel(book)} <BookBadges book={book} />
      </h1>
      <dl class="figures">
        <Figure label="Last price">{shownPrice(book.quotePrice)}</Figure>
        <Figure label="24 h change">
          <PriceChange percent={book.quotePrice24hPct} />
        </Figure>
        <Figure label="24 h high">{shownPrice(book.quotePrice24hHigh)}</Figure>
        <Figure label="24 h low">{shownPrice(book.quotePrice24hLow)}</Figure>
        <Figure label={`24 h volume ${baseName(book)}`}>{book.baseVol24h}</Figure>
        <Figure label={`24 h volume ${quoteName(book)}`}>{book.quoteVol24h}</Figure>
      </dl>
    </header>
  );
}
