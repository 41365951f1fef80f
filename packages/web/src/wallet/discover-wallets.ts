import type { EIP1193Provider } from 'viem';

/** A wallet the browser offers: by EIP-6963 announcement, or the legacy `window.ethereum`. */
export interface WalletOption {
  /** Its reverse-DNS id (`io.metamask`), or `window.ethereum`. */
  readonly id: string;
  readonly name: string;
  readonly provider: EIP1193Provider;
}

/** What discovery needs of `window`, so a test can pass its own. */
export interface WalletHost extends EventTarget {
  readonly ethereum?: EIP1193Provider | undefined;
}

interface Announcement {
  readonly info?: { readonly rdns?: unknown; readonly name?: unknown };
  readonly provider?: EIP1193Provider;
}

/** Wallets answer the request event synchronously or soon after; this long is waited for them. */
const ANSWER_MS = 150;

/**
 * The wallets of this browser (EIP-6963: every announced provider, once each by its id); without
 * any, `window.ethereum` when a wallet injected one. Icons are not used: the page's CSP allows no
 * `data:` images.
 */
export async function discoverWallets(host: WalletHost, answerMs = ANSWER_MS): Promise<WalletOption[]> {
  const found = new Map<string, WalletOption>();
  const listener = (event: Event) => {
    const { info, provider } = ((event as CustomEvent<Announcement>).detail ?? {}) as Announcement;
    if (provider === undefined || typeof info?.rdns !== 'string') return;
    const name = typeof info.name === 'string' && info.name !== '' ? info.name : info.rdns;
    if (!found.has(info.rdns)) found.set(info.rdns, { id: info.rdns, name, provider });
  };
  host.addEventListener('eip6963:announceProvider', listener);
  host.dispatchEvent(new Event('eip6963:requestProvider'));
  await new Promise((resolve) => setTimeout(resolve, answerMs));
  host.removeEventListener('eip6963:announceProvider', listener);
  if (found.size === 0 && host.ethereum !== undefined) {
    return [{ id: 'window.ethereum', name: 'Browser wallet', provider: host.ethereum }];
  }
  return [...found.values()];
}
