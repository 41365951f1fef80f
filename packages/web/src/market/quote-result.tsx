import type { QuoteAmount, QuoteSummary } from './quote-summary.js';

interface QuoteResultProps {
  readonly summary: QuoteSummary;
  readonly baseLabel: string;
  readonly quoteLabel: string;
}

function AmountRow({ amount, unit }: { readonly amount: QuoteAmount; readonly unit: string }) {
  return (
    <div class="quote-line" data-field={amount.field} data-raw={amount.raw}>
      <dt>{amount.label}</dt>
      <dd>
        {amount.display === undefined ? null : (
          <>
            <span class="num">{amount.display}</span> {unit}{' '}
          </>
        )}
        <span class="raw num">{amount.raw} raw</span>
      </dd>
    </div>
  );
}

/** A quote's answer: every amount in tokens and raw units, the average price, and whether it fills. */
export function QuoteResult({ summary, baseLabel, quoteLabel }: QuoteResultProps) {
  return (
    <dl class="quote-lines" data-fillable={String(summary.fillable)}>
      {summary.amounts.map((amount) => (
        <AmountRow key={amount.field} amount={amount} unit={amount.token === 'base' ? baseLabel : quoteLabel} />
      ))}
      <div class="quote-line" data-field="averagePrice">
        <dt>Average price</dt>
        <dd>
          {summary.averagePrice === undefined ? (
            '—'
          ) : (
            <>
              <span class="num">{summary.averagePrice}</span> {quoteLabel} per {baseLabel}
            </>
          )}
        </dd>
      </div>
      <div class="quote-line" data-field="slippageBps">
        <dt>Slippage buffer</dt>
        <dd>
          <span class="num">{summary.slippageBps}</span> bps
        </dd>
      </div>
      <div class="quote-line" data-field="fillable">
        <dt>Fillable</dt>
        <dd class={summary.fillable ? 'fillable-yes' : 'fillable-no'}>
          {summary.fillable ? 'Yes' : 'No: not enough liquidity for this amount'}
        </dd>
      </div>
    </dl>
  );
}
