/** A browser wallet for the page in Chromium: an injected EIP-1193 provider whose requests the test answers on the devnet chain. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createPublicClient, createWalletClient, type Hex, http, toHex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';

/** The devnet chain's JSON-RPC URL and id, as the service records them in its DATA_DIR. */
export async function devnetChainRecord(dataDir: string): Promise<{ rpcUrl: string; chainId: number }> {
  return JSON.parse(await readFile(join(dataDir, 'devnet-chain.json'), 'utf8')) as { rpcUrl: string; chainId: number };
}

/**
 * Injects `window.ethereum` into the page before it loads: each request goes to the test (Playwright's
 * exposed function), which answers as a wallet would: the account's address, its signatures made with
 * the key, its transactions signed and sent to the devnet node, and every read passed to the node.
 * The page sees only EIP-1193 requests, as with a real extension. `methods` records what it asked.
 */
export async function injectDevnetWallet(
  page: Page,
  account: PrivateKeyAccount,
  chain: { rpcUrl: string; chainId: number },
  methods: string[],
): Promise<void> {
  const node = createPublicClient({ transport: http(chain.rpcUrl) });
  const wallet = createWalletClient({ account, transport: http(chain.rpcUrl) });
  await page.exposeFunction('devnetWallet', async (method: string, params: unknown[]): Promise<unknown> => {
    methods.push(method);
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'eth_chainId':
        return toHex(chain.chainId);
      case 'personal_sign':
        return account.signMessage({ message: { raw: params[0] as Hex } });
      case 'eth_signTypedData_v4':
        return account.signTypedData(JSON.parse(String(params[1])));
      case 'eth_sendTransaction': {
        const { to, data } = params[0] as { to: Hex; data: Hex };
        return wallet.sendTransaction({ to, data, chain: null });
      }
      default:
        return node.request({ method, params } as Parameters<typeof node.request>[0]);
    }
  });
  await page.addInitScript(() => {
    const host = globalThis as unknown as {
      ethereum: unknown;
      devnetWallet: (method: string, params: unknown[]) => Promise<unknown>;
    };
    host.ethereum = {
      request: ({ method, params }: { method: string; params?: unknown[] }) => host.devnetWallet(method, params ?? []),
      on: () => undefined,
      removeListener: () => undefined,
    };
  });
}
