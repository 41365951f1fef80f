import { getExactInputQuote, getExactOutputQuote } from '@dex/sdk';
import { useId, useRef, useState } from 'preact/hooks';
import { client } from '../client.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { Choice } from '../forms/choice.js';
import { baseName, quoteName } from '../markets/book-label.js';
import { amountToken, type QuoteBook, type QuoteInput, quoteRequest, tokenDecimals, tokenName } from './quote-request.js';
import { QuoteResult } from './quote-result.js';
import { type QuoteAnswer, type QuoteSummary, summariseQuote } from './quote-summary.js';

type Outcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'pending' }
  | { readonly kind: 'quoted'; readonly summary: QuoteSummary }
  | { readonly kind: 'failed'; readonly error: unknown };

const INITIAL_INPUT: QuoteInput = { mode: 'exact-input', side: 'buy', amount: '', includePool: false };

/** Asks the SDK for the quote; every failure, the SDK's own refusals included, is the caller's to show. */
async function fetchQuote(book: QuoteBook, input: QuoteInput): Promise<QuoteSummary> {
  const request = quoteRequest(book, input);
  const answer: QuoteAnswer =
    request.mode === 'exact-input'
      ? { mode: request.mode, quote: await getExactInputQuote(client, request.parameters) }
      : { mode: request.mode, quote: await getExactOutputQuote(client, request.parameters) };
  return summariseQuote(book, input.side, answer);
}

function ResultArea({ outcome, book }: { readonly outcome: Outcome; readonly book: QuoteBook }) {
  return (
    <div class="quote-result" data-testid="quote-result" aria-live="polite" data-state={outcome.kind}>
      {outcome.kind === 'none' ? <p class="muted">Enter an amount to see what it would trade at now.</p> : null}
      {outcome.kind === 'pending' ? <p class="muted">Quoting…</p> : null}
      {outcome.kind === 'failed' ? <ErrorNotice error={outcome.error} context="The quote" /> : null}
      {outcome.kind === 'quoted' ? (
        <QuoteResult summary={outcome.summary} baseLabel={baseName(book)} quoteLabel={quoteName(book)} />
      ) : null}
    </div>
  );
}

/** The latest quote's outcome, and the function that asks for a new one. */
function useQuote(book: QuoteBook): [Outcome, (input: QuoteInput) => Promise<void>] {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'none' });
  const latest = useRef(0);
  const ask = async (input: QuoteInput) => {
    // Only the latest request may speak: an older answer arriving late must not replace it.
    const request = ++latest.current;
    setOutcome({ kind: 'pending' });
    try {
      const summary = await fetchQuote(book, input);
      if (request === latest.current) setOutcome({ kind: 'quoted', summary });
    } catch (error) {
      if (request === latest.current) setOutcome({ kind: 'failed', error });
    }
  };
  return [outcome, ask];
}

interface AmountFieldProps {
  readonly id: string;
  readonly book: QuoteBook;
  readonly input: QuoteInput;
  readonly onChange: (amount: string) => void;
}

/** Free text on purpose: whatever is typed goes to the SDK, which says what is wrong with it. */
function AmountField({ id, book, input, onChange }: AmountFieldProps) {
  const role = amountToken(input);
  const token = tokenName(book, role);
  const unit = tokenDecimals(book, role) === null ? `${token}, raw units` : token;
  return (
    <>
      <label class="field" for={id}>
        {input.mode === 'exact-input' ? 'Amount to spend' : 'Amount to receive'} ({unit})
      </label>
      <input
        id={id}
        name="amount"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellcheck={false}
        value={input.amount}
        onInput={(event) => onChange(event.currentTarget.value)}
      />
    </>
  );
}

/** A market quote: what spending or receiving an exact amount would trade at against the book now. */
export function QuoteForm({ book }: { readonly book: QuoteBook }) {
  const [input, setInput] = useState(INITIAL_INPUT);
  const [outcome, ask] = useQuote(book);
  const ids = useId();
  const base = baseName(book);
  const update = (change: Partial<QuoteInput>) => setInput((previous) => ({ ...previous, ...change }));
  return (
    <form
      class="quote-form"
      data-testid="quote-form"
      aria-labelledby={`${ids}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void ask(input);
      }}
    >
      <h2 id={`${ids}-title`}>Quote</h2>
      <Choice
        legend="Side"
        name={`${ids}-side`}
        value={input.side}
        options={[
          ['buy', `Buy ${base}`],
          ['sell', `Sell ${base}`],
        ]}
        onChange={(side) => update({ side })}
      />
      <Choice
        legend="Exact amount"
        name={`${ids}-mode`}
        value={input.mode}
        options={[
          ['exact-input', 'Exact input (spend)'],
          ['exact-output', 'Exact output (receive)'],
        ]}
        onChange={(mode) => update({ mode })}
      />
      <AmountField id={`${ids}-amount`} book={book} input={input} onChange={(amount) => update({ amount })} />
      {book.isAMMEnabled === 1 ? (
        <label class="check">
          <input
            type="checkbox"
            checked={input.includePool}
            onChange={(event) => update({ includePool: event.currentTarget.checked })}
          />
          Include the book's pool (AMM), as an order that opts in to it trades
        </label>
      ) : null}
      <button type="submit">Get quote</button>
      <ResultArea outcome={outcome} book={book} />
    </form>
  );
}
