import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Account } from '../account/account-store.js';
import { pageSettings } from '../data-api/page-settings-of-page.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { acceptTerms, getTermsStatus, getTermsTexts, type TermsText } from './terms-api.js';

type Gate =
  | { readonly kind: 'checking' }
  | { readonly kind: 'asking' | 'declined'; readonly texts: readonly TermsText[] }
  | { readonly kind: 'accepted' };

/** The texts the account has still to accept, read again for each account that logs in. */
function useGate(account: Account) {
  const [gate, setGate] = useState<Gate>({ kind: 'checking' });
  const [error, setError] = useState<unknown>(undefined);
  const check = useCallback(async () => {
    setError(undefined);
    try {
      const [texts, status] = await Promise.all([getTermsTexts(account.client), getTermsStatus(account.client)]);
      const pending = texts.filter((text) => status.pending.includes(text.document));
      setGate(pending.length === 0 ? { kind: 'accepted' } : { kind: 'asking', texts: pending });
    } catch (failure) {
      setError(failure);
    }
  }, [account]);
  useEffect(() => {
    setGate({ kind: 'checking' });
    void check();
  }, [check]);
  return { gate, setGate, error, setError, check };
}

function Texts({ texts }: { readonly texts: readonly TermsText[] }) {
  return (
    <>
      {texts.map((text) => (
        <article key={text.document} class="terms-text" data-testid="terms-text" data-document={text.document}>
          <h3>
            {text.title} <span class="muted">version {text.version}</span>
          </h3>
          <pre>{text.text}</pre>
        </article>
      ))}
    </>
  );
}

/**
 * Where the network asks for it (the service's page settings), the operator's terms of service and
 * order book risk notice, in full, before any order form: accepting records it on the server for
 * the logged-in account; declining keeps trading closed in this page while the market data stays.
 */
function AcceptanceGate({ account, children }: { readonly account: Account; readonly children: ComponentChildren }) {
  const { gate, setGate, error, setError, check } = useGate(account);
  const [sending, setSending] = useState(false);
  if (gate.kind === 'accepted') return <>{children}</>;
  const accept = async (texts: readonly TermsText[]) => {
    setSending(true);
    setError(undefined);
    try {
      const status = await acceptTerms(account.client, texts);
      // Recorded and committed; a text that changed meanwhile is asked for again.
      if (status.pending.length === 0) setGate({ kind: 'accepted' });
      else await check();
    } catch (failure) {
      setError(failure);
    } finally {
      setSending(false);
    }
  };
  return (
    <section class="panel panel-trade terms-gate" data-testid="terms-gate" data-state={gate.kind} aria-labelledby="terms-title">
      <h2 id="terms-title">Before you trade</h2>
      <ErrorNotice error={error} context="The terms" />
      {gate.kind === 'checking' ? (
        error === undefined ? (
          <p class="loading">Reading the terms…</p>
        ) : null
      ) : gate.kind === 'declined' ? (
        <p data-testid="terms-declined">
          You declined: trading stays closed in this page, and the market data stays open.{' '}
          <button type="button" onClick={() => setGate({ kind: 'asking', texts: gate.texts })}>
            Read the texts again
          </button>
        </p>
      ) : (
        <>
          <p>The operator asks you to accept these texts before this page offers trading. Your acceptance is recorded.</p>
          <Texts texts={gate.texts} />
          <p class="terms-actions">
            <button type="button" data-testid="terms-accept" disabled={sending} onClick={() => void accept(gate.texts)}>
              {sending ? 'Recording…' : 'I accept'}
            </button>{' '}
            <button
              type="button"
              data-testid="terms-decline"
              disabled={sending}
              onClick={() => setGate({ kind: 'declined', texts: gate.texts })}
            >
              Decline
            </button>
          </p>
        </>
      )}
    </section>
  );
}

/** Its children as they are where the network asks for no acceptance; behind the gate where it does. */
export function TermsGate({ account, children }: { readonly account: Account; readonly children: ComponentChildren }) {
  return pageSettings.terms === true ? <AcceptanceGate account={account}>{children}</AcceptanceGate> : <>{children}</>;
}
