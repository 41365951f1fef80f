import type { EIP1193Provider } from 'viem';
import { describe, expect, it } from 'vitest';
import { discoverWallets, type WalletHost } from './discover-wallets.js';

const provider = (name: string) => ({ request: async () => name }) as unknown as EIP1193Provider;

/** A window whose wallets announce themselves when asked, as EIP-6963 wallets do. */
function host(wallets: { rdns: string; name: string }[], ethereum?: EIP1193Provider): WalletHost {
  const target = new EventTarget() as EventTarget & { ethereum?: EIP1193Provider };
  if (ethereum !== undefined) target.ethereum = ethereum;
  target.addEventListener('eip6963:requestProvider', () => {
    for (const info of wallets) {
      target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info, provider: provider(info.name) } }));
    }
  });
  return target;
}

describe('discoverWallets', () => {
  it('lists every announced wallet once, by its id', async () => {
    const wallets = await discoverWallets(
      host([
        { rdns: 'io.metamask', name: 'MetaMask' },
        { rdns: 'com.example', name: '' },
        { rdns: 'io.metamask', name: 'MetaMask again' },
      ]),
      5,
    );
    expect(wallets.map(({ id, name }) => ({ id, name }))).toEqual([
      { id: 'io.metamask', name: 'MetaMask' },
      { id: 'com.example', name: 'com.example' },
    ]);
  });

  it('falls back to window.ethereum only when no wallet announces itself', async () => {
    const injected = provider('injected');
    expect((await discoverWallets(host([], injected), 5)).map((wallet) => wallet.provider)).toEqual([injected]);
    expect((await discoverWallets(host([{ rdns: 'a.b', name: 'A' }], injected), 5)).map((wallet) => wallet.id)).toEqual(['a.b']);
    expect(await discoverWallets(host([]), 5)).toEqual([]);
  });
});
