import { getTrades, type OrderbookItem } from '@dex/sdk';
import { useCallback } from 'preact/hooks';
import { type Account, useAccount } from '../account/account-store.js';
import { client } from '../client.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { useModule } from '../lazy/use-module.js';
import { CandleChart } from '../market/candle-chart.js';
import { DepthChart } from '../market/depth-chart.js';
import { DepthLadder } from '../market/depth-ladder.js';
import { MarketSummary } from '../market/market-summary.js';
import { QuoteForm } from '../market/quote-form.js';
import { TradeTape } from '../market/trade-tape.js';
import { useDepthFeed } from '../market/use-depth-feed.js';
import { baseName, quoteName } from '../markets/book-label.js';
import { getAllBooks } from '../markets/get-all-books.js';
import { usePolling } from '../polling.js';
import { MARKETS_HREF } from '../router.js';
import { TermsGate } from '../terms/terms-gate.js';

/** The tape and the figures are polled; the book is streamed once logged in (see useDepthFeed). */
const TRADES_INTERVAL_MS = 2_000;
const BOOK_INTERVAL_MS = 5_000;
const TAPE_LENGTH = 30;

interface Labels {
  readonly base: string;
  readonly quote: string;
}

function MarketHeading({
  book,
  booksLoaded,
  orderbookId,
}: {
  book: OrderbookItem | undefined;
  booksLoaded: boolean;
  orderbookId: string;
}) {
  if (book !== undefined) return <MarketSummary book={book} />;
  return (
    <header class="market-head">
      <h1>Market {orderbookId}</h1>
      {booksLoaded ? <p class="notice">The service lists no market with id {orderbookId}.</p> : null}
    </header>
  );
}

interface BookPanelProps {
  readonly orderbookId: string;
  readonly book: OrderbookItem | undefined;
  readonly account: Account | undefined;
  readonly labels: Labels;
}

function BookPanel({ orderbookId, book, account, labels }: BookPanelProps) {
  const depth = useDepthFeed(account?.client, orderbookId, book);
  return (
    <>
      <section class="panel panel-ladder" aria-labelledby="ladder-title" data-source={depth.source}>
        <h2 id="ladder-title">Order book</h2>
        <ErrorNotice error={depth.error} context="Loading the depth" staleSince={depth.updatedAt} />
        {depth.data === undefined ? (
          depth.error === undefined ? (
            <p class="loading">Loading the book…</p>
          ) : null
        ) : (
          <DepthLadder depth={depth.data} baseLabel={labels.base} quoteLabel={labels.quote} />
        )}
      </section>
      <section class="panel panel-chart" aria-labelledby="chart-title">
        <h2 id="chart-title">Depth chart</h2>
        {depth.data === undefined ? null : <DepthChart depth={depth.data} baseLabel={labels.base} quoteLabel={labels.quote} />}
      </section>
    </>
  );
}

function TapePanel({ orderbookId, labels }: { readonly orderbookId: string; readonly labels: Labels }) {
  const fetchTrades = useCallback(() => getTrades(client, { orderbookId, limit: TAPE_LENGTH }), [orderbookId]);
  const trades = usePolling(fetchTrades, TRADES_INTERVAL_MS);
  return (
    <section class="panel panel-tape" aria-labelledby="tape-title">
      <h2 id="tape-title">Latest trades</h2>
      <ErrorNotice error={trades.error} context="Loading the trades" staleSince={trades.updatedAt} />
      {trades.data === undefined ? (
        trades.error === undefined ? (
          <p class="loading">Loading trades…</p>
        ) : null
      ) : (
        <TradeTape trades={trades.data} baseLabel={labels.base} quoteLabel={labels.quote} />
      )}
    </section>
  );
}

const loadTrading = () => import('../trading/trading-panels.js');

/**
 * For a logged-in account: the order form, and its orders on this book (their code loads after
 * login), behind the operator's terms where the network asks for them.
 */
function TradingArea({ account, book }: { readonly account: Account | undefined; readonly book: OrderbookItem | undefined }) {
  const trading = useModule(loadTrading, account !== undefined);
  if (account === undefined || trading.module === undefined || book === undefined) {
    return (
      <section class="panel panel-trade">
        <ErrorNotice error={trading.error} context="Loading the trading panels" />
        <p class="muted">
          {account === undefined ? 'Log in with a devnet key (above) to place and cancel orders.' : 'Loading the order form…'}
        </p>
      </section>
    );
  }
  return (
    <TermsGate account={account}>
      <trading.module.TradingPanels account={account} book={book} />
    </TermsGate>
  );
}

/** One market: its figures, candles, depth ladder and chart, trade tape and a quote form. */
export function MarketPage({ orderbookId }: { readonly orderbookId: string }) {
  const fetchBooks = useCallback(() => getAllBooks(client), []);
  const books = usePolling(fetchBooks, BOOK_INTERVAL_MS);
  const account = useAccount();
  const book = books.data?.find((item) => String(item.id) === orderbookId);
  // Until the book list arrives, the tokens go by their roles.
  const labels: Labels = book === undefined ? { base: 'base', quote: 'quote' } : { base: baseName(book), quote: quoteName(book) };
  return (
    <div class="page market-page">
      <p class="back">
        <a href={MARKETS_HREF}>← All markets</a>
      </p>
      <MarketHeading book={book} booksLoaded={books.data !== undefined} orderbookId={orderbookId} />
      <ErrorNotice error={books.error} context="Loading the market list" staleSince={books.updatedAt} />
      <div class="market-grid">
        <section class="panel panel-candles" aria-labelledby="candles-title">
          <h2 id="candles-title">Price</h2>
          <CandleChart orderbookId={orderbookId} />
        </section>
        <BookPanel orderbookId={orderbookId} book={book} account={account} labels={labels} />
        <TapePanel orderbookId={orderbookId} labels={labels} />
        <TradingArea account={account} book={book} />
        <section class="panel panel-quote">
          {book !== undefined ? (
            <QuoteForm book={book} />
          ) : (
            <p class="muted">
              {books.data === undefined ? 'Loading the market’s tokens for quotes…' : 'No quotes: the market is not listed.'}
            </p>
          )}
        </section>
      </div>
    </div>
  );
}
