import { getOnboardingStatus, getSignatureDomain, type OnboardingStatus, type OrderbookItem, onboard } from '@dex/sdk';
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Account } from '../account/account-store.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { pairLabel } from '../markets/book-label.js';
import { STEP_LABELS, type TokenSteps, tokenSteps } from './onboarding-steps.js';

type Sending =
  | { readonly kind: 'idle' }
  | { readonly kind: 'sending'; readonly step: string; readonly index: number; readonly of: number };

function StepsTable({ rows }: { readonly rows: readonly TokenSteps[] }) {
  return (
    <div class="table-scroll">
      <table class="onboarding-steps">
        <caption class="visually-hidden">Onboarding steps per token</caption>
        <thead>
          <tr>
            <th scope="col">Token</th>
            {STEP_LABELS.map((label) => (
              <th scope="col" key={label}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.role} data-testid="onboarding-token" data-token={row.symbol}>
              <th scope="row">{row.symbol}</th>
              {row.steps.map((step) => (
                <td key={step.step} data-step={step.step} data-done={String(step.done)}>
                  {step.done ? 'done' : 'pending'}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The account's onboarding status on the book, read again on demand. */
function useOnboardingStatus(account: Account, orderbookId: number) {
  const [status, setStatus] = useState<OnboardingStatus | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const load = useCallback(async () => {
    try {
      setStatus(await getOnboardingStatus(account.client, { orderbookId }));
      setError(undefined);
    } catch (failure) {
      setError(failure);
    }
  }, [account, orderbookId]);
  useEffect(() => {
    setStatus(undefined);
    void load();
  }, [load]);
  return { status, error, setError, load };
}

interface ActionsProps {
  readonly account: Account;
  readonly orderbookId: number;
  readonly pending: number;
  readonly sending: Sending;
  readonly approve: () => void;
  readonly load: () => void;
}

/** What takes the pending steps: the wallet's button, or for a devnet key the commands that do it. */
function OnboardingActions({ account, orderbookId, pending, sending, approve, load }: ActionsProps) {
  const checkAgain = (
    <button type="button" onClick={load}>
      Check again
    </button>
  );
  if (account.transactions === undefined) {
    return (
      <p class="muted" data-testid="onboarding-hint">
        Orders are refused until these are done. A devnet key sends no transactions from this page: on the devnet,{' '}
        <code>npm run cli -- account fund --account {account.address}</code> approves for it, or{' '}
        <code>dex-trade onboard {orderbookId}</code> with the key. {checkAgain}
      </p>
    );
  }
  return (
    <p>
      <button type="button" data-testid="onboard" disabled={sending.kind === 'sending'} onClick={approve}>
        {sending.kind === 'sending'
          ? `Waiting for the wallet: ${sending.step} (${sending.index} of ${sending.of})…`
          : `Approve with the wallet (${pending} transaction${pending === 1 ? '' : 's'})`}
      </button>{' '}
      {checkAgain}
    </p>
  );
}

/**
 * The account's onboarding on this book, per token: the reactor pulls every fill through Permit2,
 * so until both tokens are approved to Permit2 and the reactor inside it, every order is refused.
 * A browser wallet sends the pending approvals from here (the SDK's `onboard`); a devnet key has no
 * chain connection in the page, and the panel says how to approve for it instead.
 */
export function OnboardingPanel({ account, book }: { readonly account: Account; readonly book: OrderbookItem }) {
  const orderbookId = book.id;
  const { status, error, setError, load } = useOnboardingStatus(account, orderbookId);
  const [sending, setSending] = useState<Sending>({ kind: 'idle' });
  const approve = async () => {
    if (account.transactions === undefined || status === undefined) return;
    setError(undefined);
    const of = status.pendingSteps.length;
    try {
      // The wallet must be on the chain orders are signed for: the signing domain names it.
      const send = account.transactions((await getSignatureDomain(account.client)).chainId);
      let index = 0;
      await onboard(account.client, {
        orderbookId,
        sendTransaction: (transaction) => {
          setSending({ kind: 'sending', step: transaction.step, index: ++index, of });
          return send(transaction);
        },
      });
    } catch (failure) {
      setError(failure);
    } finally {
      setSending({ kind: 'idle' });
      await load();
    }
  };
  return (
    <div class="onboarding" data-testid="onboarding" data-complete={status === undefined ? undefined : String(status.isComplete)}>
      <h3>Onboarding on {pairLabel(book)}</h3>
      {status === undefined ? (
        error === undefined ? (
          <p class="loading">Reading the approvals…</p>
        ) : null
      ) : (
        <StepsTable rows={tokenSteps(status, book)} />
      )}
      {status?.isComplete === false ? (
        <OnboardingActions
          account={account}
          orderbookId={orderbookId}
          pending={status.pendingSteps.length}
          sending={sending}
          approve={() => void approve()}
          load={() => void load()}
        />
      ) : null}
      <ErrorNotice error={error} context="Onboarding" />
    </div>
  );
}
