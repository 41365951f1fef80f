import {
  createClient,
  getBooks,
  getOnboardingStatus,
  getSignatureDomain,
  limitOrderRequest,
  type OrderbookItem,
  onboard,
  placeOrders,
  secp256k1Signer,
} from '@dex/sdk';
import { type Harness, RealTimeClock, runOperatorOn, startHarness } from '@dex/server/test-support';
import { createPublicClient, createWalletClient, type EIP1193Provider, type Hex, http, toHex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWallet, walletTransactions } from '../../packages/web/src/wallet/wallet-account.js';

let harness: Harness;
let rpcUrl: string;

beforeAll(async () => {
  harness = await startHarness({ CHAIN: 'devnet', LOG_LEVEL: 'silent' }, { listen: true, clock: new RealTimeClock() });
  const url = harness.services.chain?.public.chain.rpcUrls.default.http[0];
  if (url === undefined) throw new Error('no devnet chain');
  rpcUrl = url;
});

afterAll(async () => {
  await harness?.close();
});

/**
 * A browser wallet as the page meets it (EIP-1193 requests only), on the devnet chain: it signs
 * with a viem local account, sends what it signs to the chain's node, and passes every read to the
 * node, as a wallet does with its own RPC. `chainId` is the chain it says it is on.
 */
function devnetWallet(account: PrivateKeyAccount, chainId: number, calls: string[]): EIP1193Provider {
  const node = createPublicClient({ transport: http(rpcUrl) });
  const signer = createWalletClient({ account, transport: http(rpcUrl) });
  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    calls.push(method);
    const args = (params ?? []) as unknown[];
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'eth_chainId':
        return toHex(chainId);
      case 'personal_sign':
        return account.signMessage({ message: { raw: args[0] as Hex } });
      case 'eth_signTypedData_v4':
        return account.signTypedData(JSON.parse(String(args[1])));
      case 'eth_sendTransaction': {
        const { from, to, data } = args[0] as { from: string; to: Hex; data: Hex };
        expect(from.toLowerCase()).toBe(account.address.toLowerCase());
        return signer.sendTransaction({ to, data, chain: null });
      }
      default:
        return node.request({ method, params } as Parameters<typeof node.request>[0]);
    }
  };
  return { request, on: () => undefined, removeListener: () => undefined } as unknown as EIP1193Provider;
}

/** A fresh wallet with gas and tokens on the devnet chain and no approvals, logged in through the wallet. */
async function walletAccount(chainId?: number) {
  const account = privateKeyToAccount(generatePrivateKey());
  const funded = await runOperatorOn(harness, 'account', 'fund', '--account', account.address, '--no-approve');
  expect(funded.code).toBe(0);
  const calls: string[] = [];
  const domain = await getSignatureDomain(createClient({ baseUrl: harness.url }));
  const provider = devnetWallet(account, chainId ?? domain.chainId, calls);
  const typed = await connectWallet(provider);
  const client = createClient({ baseUrl: harness.url, signer: secp256k1Signer(typed) });
  return { client, calls, send: walletTransactions(provider, typed.address, domain.chainId) };
}

describe('the onboarding approvals sent by a browser wallet', () => {
  it('sends each pending step through eth_sendTransaction, waits until mined, and the account then trades', async () => {
    const { client, calls, send } = await walletAccount();
    expect((await getOnboardingStatus(client, { orderbookId: 1 })).pendingSteps).toHaveLength(4);
    const { sent } = await onboard(client, { orderbookId: 1, sendTransaction: send });
    expect(sent).toHaveLength(4);
    expect(calls.filter((method) => method === 'eth_sendTransaction')).toHaveLength(4);
    expect(await getOnboardingStatus(client, { orderbookId: 1 })).toMatchObject({ isComplete: true });
    const book = (await getBooks(client)).orderbooks[0] as OrderbookItem;
    const { orders } = await placeOrders(client, {
      orders: [limitOrderRequest(book, { side: 'buy', price: '0.2', size: '10' })],
    });
    expect(orders[0]?.meta.status).toBe('ACTIVE');
  });

  it('refuses a wallet on another chain before asking it to send anything', async () => {
    const { client, calls, send } = await walletAccount(1);
    await expect(onboard(client, { orderbookId: 1, sendTransaction: send })).rejects.toMatchObject({
      name: 'OnboardingTransactionError',
      step: 'approveBaseTokenPermit2',
      cause: expect.objectContaining({ message: expect.stringContaining('switch it to chain 298') }),
    });
    expect(calls).not.toContain('eth_sendTransaction');
    expect((await getOnboardingStatus(client, { orderbookId: 1 })).pendingSteps).toHaveLength(4);
  });
});
