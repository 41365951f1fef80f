import { useId, useState } from 'preact/hooks';
import { ErrorNotice } from '../errors/error-notice.js';
import { WalletLogin } from '../wallet/wallet-login.js';
import { type Account, logIn, logOut, useAccount } from './account-store.js';
import { addressOfKey, devnetSigner, generateDevnetKey } from './devnet-key.js';
import { forgetKey, loadKey, normalisePrivateKey, saveKey } from './key-storage.js';

const WARNING = 'This key is stored unencrypted in this browser; use it for the devnet only.';

function KeyImport({ onKey }: { readonly onKey: (key: string) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [refused, setRefused] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    const key = normalisePrivateKey(text);
    const usable = key !== undefined && addressOfKey(key) !== undefined;
    setRefused(!usable);
    if (!usable) return;
    setText('');
    onKey(key);
  };
  return (
    <form class="key-import" onSubmit={submit}>
      <label for={id}>Or import a private key (hex)</label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        spellcheck={false}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <button type="submit">Import</button>
      {refused ? (
        <p class="notice" role="alert">
          A private key is 32 bytes: 64 hex digits, with or without 0x.
        </p>
      ) : null}
    </form>
  );
}

function RevealedKey({ privateKey }: { readonly privateKey: string }) {
  const [shown, setShown] = useState(false);
  return shown ? (
    <p>
      <label>
        Private key <input readOnly value={privateKey} spellcheck={false} />
      </label>{' '}
      <button type="button" onClick={() => setShown(false)}>
        Hide key
      </button>
    </p>
  ) : (
    <button type="button" onClick={() => setShown(true)}>
      Show key
    </button>
  );
}

function LoggedIn({ account }: { readonly account: Account }) {
  const expiresAt = account.client.session.expiresAt;
  return (
    <p>
      Logged in with a {account.via} as <code data-testid="account-address">{account.address}</code>
      {expiresAt === undefined ? null : <span class="muted"> · session until {new Date(expiresAt).toLocaleTimeString()}</span>}{' '}
      <button type="button" data-testid="logout" onClick={logOut}>
        Log out
      </button>
    </p>
  );
}

interface StoredKeyProps {
  readonly privateKey: string;
  readonly address: string;
  readonly onForget: () => void;
}

function StoredKey({ privateKey, address, onForget }: StoredKeyProps) {
  const [outcome, setOutcome] = useState<{ kind: 'idle' | 'pending' } | { kind: 'failed'; error: unknown }>({ kind: 'idle' });
  const logInWithKey = async () => {
    setOutcome({ kind: 'pending' });
    try {
      await logIn(devnetSigner(privateKey), 'devnet key');
      setOutcome({ kind: 'idle' });
    } catch (error) {
      setOutcome({ kind: 'failed', error });
    }
  };
  return (
    <>
      <p>
        Devnet key of <code data-testid="account-address">{address}</code>{' '}
        <button type="button" data-testid="login" disabled={outcome.kind === 'pending'} onClick={logInWithKey}>
          {outcome.kind === 'pending' ? 'Logging in…' : 'Log in'}
        </button>
      </p>
      {outcome.kind === 'failed' ? <ErrorNotice error={outcome.error} context="Logging in" /> : null}
      <p class="key-actions">
        <RevealedKey privateKey={privateKey} />{' '}
        <button type="button" onClick={onForget}>
          Forget key
        </button>
      </p>
    </>
  );
}

/**
 * Login with a devnet key kept in this browser (generate or import one, log in, log out, forget it)
 * or with a browser wallet.
 */
export function AccountPanel() {
  const account = useAccount();
  const [privateKey, setPrivateKey] = useState(() => loadKey(localStorage));
  // A stored key outside the curve (edited by hand) reads as none; generating or importing replaces it.
  const address = privateKey === undefined ? undefined : addressOfKey(privateKey);
  const keep = (key: string) => {
    saveKey(localStorage, key);
    setPrivateKey(key);
  };
  const forget = () => {
    logOut();
    forgetKey(localStorage);
    setPrivateKey(undefined);
  };
  return (
    <section class="account-panel" aria-label="Account">
      {account !== undefined ? (
        <LoggedIn account={account} />
      ) : privateKey !== undefined && address !== undefined ? (
        <StoredKey privateKey={privateKey} address={address} onForget={forget} />
      ) : (
        <>
          <p>
            <button type="button" data-testid="generate-key" onClick={() => keep(generateDevnetKey())}>
              Generate a devnet key
            </button>
          </p>
          <KeyImport onKey={keep} />
        </>
      )}
      {account === undefined ? <WalletLogin /> : null}
      {account?.via === 'browser wallet' ? null : <p class="muted key-warning">{WARNING}</p>}
    </section>
  );
}
