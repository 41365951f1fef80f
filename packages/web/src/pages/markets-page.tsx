import type { OrderbookItem } from '@dex/sdk';
import { useCallback } from 'preact/hooks';
import { client } from '../client.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { BookBadges } from '../markets/book-badges.js';
import { baseName, pairLabel, quoteName } from '../markets/book-label.js';
import { getAllBooks } from '../markets/get-all-books.js';
import { PriceChange } from '../markets/price-change.js';
import { shownPrice } from '../markets/shown-price.js';
import { usePolling } from '../polling.js';
import { marketHref } from '../router.js';

/** Anonymous visitors poll; 5 s keeps the list fresh without weighing on the service. */
const BOOKS_INTERVAL_MS = 5_000;

function MarketRow({ book }: { readonly book: OrderbookItem }) {
  return (
    <tr data-testid="market-row" data-orderbook-id={book.id}>
      <th scope="row" data-label="Pair">
        <a href={marketHref(book.id)}>{pairLabel(book)}</a>
      </th>
      <td data-label="Last price" class="num">
        {shownPrice(book.quotePrice)}
      </td>
      <td data-label="24 h change" class="num">
        <PriceChange percent={book.quotePrice24hPct} />
      </td>
      <td data-label="24 h high" class="num">
        {shownPrice(book.quotePrice24hHigh)}
      </td>
      <td data-label="24 h low" class="num">
        {shownPrice(book.quotePrice24hLow)}
      </td>
      <td data-label="Base volume" class="num">
        <span>
          {book.baseVol24h} <span class="unit">{baseName(book)}</span>
        </span>
      </td>
      <td data-label="Quote volume" class="num">
        <span>
          {book.quoteVol24h} <span class="unit">{quoteName(book)}</span>
        </span>
      </td>
      <td data-label="State">
        <BookBadges book={book} />
      </td>
    </tr>
  );
}

function MarketsTable({ books }: { readonly books: readonly OrderbookItem[] }) {
  if (books.length === 0) return <p class="empty">The service lists no markets yet.</p>;
  return (
    <table class="markets" data-testid="markets">
      <thead>
        <tr>
          <th scope="col">Pair</th>
          <th scope="col" class="num">
            Last price
          </th>
          <th scope="col" class="num">
            24 h change
          </th>
          <th scope="col" class="num">
            24 h high
          </th>
          <th scope="col" class="num">
            24 h low
          </th>
          <th scope="col" class="num">
            Base volume 24 h
          </th>
          <th scope="col" class="num">
            Quote volume 24 h
          </th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {books.map((book) => (
          <MarketRow key={book.id} book={book} />
        ))}
      </tbody>
    </table>
  );
}

/** Every market of the service, refreshed every few seconds; each row links to its market. */
export function MarketsPage() {
  const fetchBooks = useCallback(() => getAllBooks(client), []);
  const books = usePolling(fetchBooks, BOOKS_INTERVAL_MS);
  return (
    <section class="page" aria-labelledby="markets-title">
      <h1 id="markets-title">Markets</h1>
      <ErrorNotice error={books.error} context="Loading the markets" staleSince={books.updatedAt} />
      {books.data === undefined ? (
        books.error === undefined ? (
          <p class="loading">Loading markets…</p>
        ) : null
      ) : (
        <MarketsTable books={books.data} />
      )}
    </section>
  );
}
