import { secp256k1Signer } from '@dex/sdk';
import { useState } from 'preact/hooks';
import { logIn } from '../account/account-store.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { discoverWallets, type WalletOption } from './discover-wallets.js';

type State =
  | { readonly kind: 'idle' }
  | { readonly kind: 'looking' }
  | { readonly kind: 'choose'; readonly wallets: readonly WalletOption[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'connecting' }
  | { readonly kind: 'failed'; readonly error: unknown };

/** Logs in as the 0x account of a browser wallet, which signs the login and each order itself. */
export function WalletLogin() {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const connect = async (wallet: WalletOption) => {
    setState({ kind: 'connecting' });
    try {
      // viem is loaded only by those who use a wallet: most of the page's weight otherwise.
      const { connectWallet, walletTransactions } = await import('./wallet-account.js');
      const account = await connectWallet(wallet.provider);
      // The wallet also sends the onboarding's approvals, on the chain the page names when it sends them.
      const transactions = (chainId: number) => walletTransactions(wallet.provider, account.address, chainId);
      await logIn(secp256k1Signer(account), 'browser wallet', transactions);
    } catch (error) {
      setState({ kind: 'failed', error });
    }
  };
  const look = async () => {
    setState({ kind: 'looking' });
    const wallets = await discoverWallets(window);
    const only = wallets[0];
    if (wallets.length === 1 && only !== undefined) return connect(only);
    setState(wallets.length === 0 ? { kind: 'none' } : { kind: 'choose', wallets });
  };
  const busy = state.kind === 'looking' || state.kind === 'connecting';
  return (
    <div class="wallet-login">
      <p>
        <button type="button" data-testid="connect-wallet" disabled={busy} onClick={() => void look()}>
          {busy ? 'Waiting for the wallet…' : 'Log in with a browser wallet'}
        </button>
      </p>
      {state.kind === 'none' ? <p class="notice">No browser wallet found (EIP-6963 or window.ethereum).</p> : null}
      {state.kind === 'choose' ? (
        <ul class="wallet-list" aria-label="Browser wallets">
          {state.wallets.map((wallet) => (
            <li key={wallet.id}>
              <button type="button" onClick={() => void connect(wallet)}>
                {wallet.name}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {state.kind === 'failed' ? <ErrorNotice error={state.error} context="Logging in with the wallet" /> : null}
    </div>
  );
}
