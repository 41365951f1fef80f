import { type Eip712Domain, orderTypedData, type PartialFillLimitOrder } from '@dex/core';
import { orderArbitrary } from '@dex/core/test-support/order-arbitraries';
import { secp256k1Signer } from '@dex/sdk';
import fc from 'fast-check';
import { type EIP1193Provider, type Hex, recoverMessageAddress, recoverTypedDataAddress } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { connectWallet } from './wallet-account.js';

const DOMAIN: Eip712Domain = {
  name: 'PartialFillLimitOrderReactor',
  version: '1',
  chainId: 298,
  verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
};

/**
 * A wallet as a page meets it: only JSON-RPC requests (EIP-1193), signing with a viem local account.
 * Typed data arrives as the JSON text wallets receive, so the adapter's serialisation is exercised.
 */
function localWallet(account: PrivateKeyAccount, calls: string[]): EIP1193Provider {
  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    calls.push(method);
    const args = (params ?? []) as unknown[];
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'personal_sign': {
        expect(String(args[1]).toLowerCase()).toBe(account.address.toLowerCase());
        return account.signMessage({ message: { raw: args[0] as Hex } });
      }
      case 'eth_signTypedData_v4': {
        expect(String(args[0]).toLowerCase()).toBe(account.address.toLowerCase());
        return account.signTypedData(JSON.parse(String(args[1])));
      }
      default:
        throw new Error(`unsupported ${method}`);
    }
  };
  return { request, on: () => undefined, removeListener: () => undefined } as unknown as EIP1193Provider;
}

describe('a browser wallet as the SDK signer', () => {
  it('logs in and signs orders exactly as the SDK signs with the same key, recoverable to the account', async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const calls: string[] = [];
    const signer = secp256k1Signer(await connectWallet(localWallet(account, calls)));
    const reference = secp256k1Signer(key);
    expect(signer.account).toBe(reference.account);

    const message = 'dex.example wants you to sign in\nAccount: x\nNonce: 1';
    const login = await signer.signMessage(message);
    expect(login).toBe(await reference.signMessage(message));
    expect(await recoverMessageAddress({ message, signature: login })).toBe(account.address);

    const order = fc.sample(orderArbitrary(64), 1)[0] as PartialFillLimitOrder;
    const signed = await signer.signOrder(order, DOMAIN);
    expect(signed).toBe(await reference.signOrder(order, DOMAIN));
    const signature = `0x${signed.slice(4)}` as Hex;
    expect(await recoverTypedDataAddress({ ...orderTypedData(DOMAIN, order), signature })).toBe(account.address);
    expect(calls).toEqual(['eth_requestAccounts', 'personal_sign', 'eth_signTypedData_v4']);
  });

  it('refuses a wallet that shares no account', async () => {
    const empty = { request: async () => [], on: () => undefined, removeListener: () => undefined } as unknown as EIP1193Provider;
    await expect(connectWallet(empty)).rejects.toThrow('no account');
  });
});
