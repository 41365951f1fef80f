import { type OrderbookItem, type OrderSide, placeOrders, type SavedOrder } from '@dex/sdk';
import { useId, useState } from 'preact/hooks';
import type { Account } from '../account/account-store.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { Choice } from '../forms/choice.js';
import { baseName, quoteName } from '../markets/book-label.js';
import { FeeCaps } from './fee-caps.js';
import { checkOrder, type OrderCheck, type OrderInput } from './order-entry.js';
import { shownStatus, statusLabel } from './order-status.js';

type OrderType = OrderInput['type'];

interface Typed {
  readonly type: OrderType;
  readonly side: OrderSide;
  readonly price: string;
  readonly size: string;
}

type Outcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'pending' }
  | { readonly kind: 'placed'; readonly order: SavedOrder }
  | { readonly kind: 'failed'; readonly error: unknown };

const inputOf = ({ type, side, price, size }: Typed): OrderInput =>
  type === 'limit' ? { type, side, price, size } : { type, side, amount: size };

function Field(props: { id: string; label: string; value: string; onInput: (value: string) => void }) {
  return (
    <>
      <label class="field" for={props.id}>
        {props.label}
      </label>
      <input
        id={props.id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellcheck={false}
        value={props.value}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </>
  );
}

/** The order as it will be sent, on the grid, or why the grid refuses it. */
function Preview({ check, book, typed }: { check: OrderCheck; book: OrderbookItem; typed: Typed }) {
  if (typed.size === '' || (typed.type === 'limit' && typed.price === '')) return null;
  if (!check.ok) return <ErrorNotice error={check.error} context="Checking the order" />;
  const { price, size, total } = check.preview;
  return (
    <p class="order-preview" data-testid="order-preview">
      {typed.side === 'buy' ? 'Buy' : 'Sell'} {size === undefined ? '' : `${size} ${baseName(book)}`}
      {price === undefined ? ' at market' : ` at ${price}`}
      {total === undefined ? '' : ` · ${total} ${quoteName(book)}`}
    </p>
  );
}

function Result({ outcome }: { readonly outcome: Outcome }) {
  return (
    <div class="order-result" data-testid="order-result" data-state={outcome.kind} aria-live="polite">
      {outcome.kind === 'pending' ? <p class="muted">Signing and placing…</p> : null}
      {outcome.kind === 'failed' ? <ErrorNotice error={outcome.error} context="Placing the order" /> : null}
      {outcome.kind === 'placed' ? (
        <p data-order-id={outcome.order.meta.id} data-status={shownStatus(outcome.order.meta.status, false)}>
          Order {outcome.order.meta.id} placed: {statusLabel(shownStatus(outcome.order.meta.status, false))}
        </p>
      ) : null}
    </div>
  );
}

/** A limit or market order on this book, checked against its grid, signed in this browser and saved. */
export function OrderForm({ account, book }: { readonly account: Account; readonly book: OrderbookItem }) {
  const ids = useId();
  const [typed, setTyped] = useState<Typed>({ type: 'limit', side: 'buy', price: '', size: '' });
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'none' });
  const update = (change: Partial<Typed>) => setTyped((previous) => ({ ...previous, ...change }));
  const check = checkOrder(book, inputOf(typed));
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!check.ok) return setOutcome({ kind: 'failed', error: check.error });
    setOutcome({ kind: 'pending' });
    try {
      const { orders } = await placeOrders(account.client, { orders: [check.preview.request] });
      const order = orders[0];
      setOutcome(order === undefined ? { kind: 'none' } : { kind: 'placed', order });
    } catch (error) {
      setOutcome({ kind: 'failed', error });
    }
  };
  const base = baseName(book);
  const amountLabel = typed.type === 'limit' || typed.side === 'sell' ? `Size (${base})` : `Amount to spend (${quoteName(book)})`;
  return (
    <form class="order-form" data-testid="order-form" aria-labelledby={`${ids}-title`} onSubmit={submit}>
      <h2 id={`${ids}-title`}>Place an order</h2>
      <Choice
        legend="Type"
        name={`${ids}-type`}
        value={typed.type}
        options={[
          ['limit', 'Limit'],
          ['market', 'Market'],
        ]}
        onChange={(type) => update({ type })}
      />
      <Choice
        legend="Side"
        name={`${ids}-side`}
        value={typed.side}
        options={[
          ['buy', `Buy ${base}`],
          ['sell', `Sell ${base}`],
        ]}
        onChange={(side) => update({ side })}
      />
      {typed.type === 'limit' ? (
        <Field
          id={`${ids}-price`}
          label={`Price (${quoteName(book)} per ${base})`}
          value={typed.price}
          onInput={(price) => update({ price })}
        />
      ) : null}
      <Field id={`${ids}-size`} label={amountLabel} value={typed.size} onInput={(size) => update({ size })} />
      {typed.type === 'market' ? (
        <p class="muted">A market order trades what it can at once, at any price the book gives; the rest is cancelled.</p>
      ) : null}
      <Preview check={check} book={book} typed={typed} />
      <FeeCaps account={account} book={book} />
      <button type="submit" data-testid="place-order" disabled={outcome.kind === 'pending'}>
        Place order
      </button>
      <Result outcome={outcome} />
    </form>
  );
}
