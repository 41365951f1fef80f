import { authenticate, type Client, createClient, type SendOnboardingTransaction, type Signer } from '@dex/sdk';
import { useEffect, useState } from 'preact/hooks';

/** A logged-in account: a client that signs with the account's key and logs in again by itself. */
export interface Account {
  /** The lower-case 0x address. */
  readonly address: string;
  readonly client: Client;
  /** What signs: a key kept in this browser, or a browser wallet (which asks its user each time). */
  readonly via: 'devnet key' | 'browser wallet';
  /**
   * What sends the account's chain transactions (the onboarding's approvals) on the chain of this
   * id: the browser wallet. None for a devnet key: the page has no chain connection of its own.
   */
  readonly transactions?: ((chainId: number) => SendOnboardingTransaction) | undefined;
}

let current: Account | undefined;
const listeners = new Set<() => void>();

function setAccount(account: Account | undefined): void {
  current = account;
  for (const listener of listeners) listener();
}

/**
 * Logs in with the challenge flow; the account becomes the page's once the server has given it a
 * token. The token stays inside the client's session, never in the page's state.
 */
export async function logIn(signer: Signer, via: Account['via'], transactions?: Account['transactions']): Promise<Account> {
  const client = createClient({ baseUrl: location.origin, signer, timeoutMs: 10_000 });
  await authenticate(client);
  const account: Account = { address: signer.account, client, via, transactions };
  setAccount(account);
  return account;
}

export function logOut(): void {
  setAccount(undefined);
}

/** The logged-in account, re-rendering on login and logout. */
export function useAccount(): Account | undefined {
  const [account, setState] = useState(current);
  useEffect(() => {
    const listener = () => setState(current);
    listeners.add(listener);
    listener();
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return account;
}
