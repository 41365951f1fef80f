import { DevnetNode, devnetClients, fund } from '@dex/contracts';
import { type Hex, zeroAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { ChainContext } from './chain-context.js';
import { type JsonRpcFetch, keepAliveFetch } from './keep-alive-fetch.js';
import { OperatorTransactions } from './operator-transactions.js';

/** A chain whose node is gone: nothing listens on its port. */
function unreachableChain(): ChainContext {
  const clients = devnetClients('http://127.0.0.1:1', 298);
  return {
    public: clients.public,
    operator: clients.wallet(privateKeyToAccount(generatePrivateKey())),
    reactor: zeroAddress,
    chainId: 298,
    headAtStart: 0n,
    indexFrom: 0n,
    amm: null,
    wrappedNative: null,
    devnet: null,
    close: async () => {},
  };
}

/**
 * Operator transactions from a funded account on the node at `rpcUrl`, and the JSON-RPC methods
 * they ask for. `unsupported` methods reach the node renamed, so that it answers as a relay that
 * lacks them does: method not found.
 */
async function countedTransactions(
  rpcUrl: string,
  unsupported: readonly string[] = [],
): Promise<{ transactions: OperatorTransactions; methods: string[] }> {
  const methods: string[] = [];
  const send = keepAliveFetch();
  const counting: JsonRpcFetch = (input, init) => {
    const body: unknown = JSON.parse(String(init?.body));
    const calls = (Array.isArray(body) ? body : [body]) as { method: string }[];
    for (const call of calls) {
      methods.push(call.method);
      if (unsupported.includes(call.method)) call.method = `${call.method}_not_here`;
    }
    return send(input, { ...init, body: JSON.stringify(body) });
  };
  const clients = devnetClients(rpcUrl, 298, counting);
  const operator = clients.wallet(privateKeyToAccount(generatePrivateKey()));
  await fund(clients, operator.account.address);
  const chain: ChainContext = { ...unreachableChain(), public: clients.public, operator, devnet: clients };
  methods.length = 0;
  return { transactions: new OperatorTransactions(chain), methods };
}

describe('OperatorTransactions', () => {
  it('leaves no unhandled rejection when the node is gone and the calldata it waited for fails afterwards', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      let fail: (error: Error) => void = () => {};
      const calldata = new Promise<Hex | null>((_, reject) => {
        fail = reject;
      });
      await expect(new OperatorTransactions(unreachableChain()).sendCalldata(calldata)).rejects.toThrow();
      fail(new Error('the simulation failed too'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('gives up on a transaction the node no longer knows, after a few seconds instead of its two-minute bound', async () => {
    const node = await DevnetNode.start({ chainId: 298, stateFile: null });
    try {
      const clients = devnetClients(node.rpcUrl, 298);
      const operator = clients.wallet(privateKeyToAccount(generatePrivateKey()));
      await fund(clients, operator.account.address);
      const chain: ChainContext = { ...unreachableChain(), public: clients.public, operator, devnet: clients };
      await clients.test.setAutomine(false);
      const sent = await new OperatorTransactions(chain).sendCalldata('0x', 21_000n);
      await clients.test.dropTransaction({ hash: sent.hash });
      const started = Date.now();
      await expect(sent.receipt).rejects.toThrow(/the node no longer knows it/);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await node.stop();
    }
  });

  it('reads the fees once for transactions sent within a second, and again after the node refused one', async () => {
    const node = await DevnetNode.start({ chainId: 298, stateFile: null });
    try {
      const { transactions, methods } = await countedTransactions(node.rpcUrl);
      const feeReads = () => methods.filter((method) => method === 'eth_maxPriorityFeePerGas').length;
      for (let sent = 0; sent < 3; sent++) await (await transactions.sendCalldata('0x', 21_000n)).receipt;
      expect(feeReads()).toBe(1);
      // Too little gas for any transaction: the node refuses it.
      await expect(transactions.sendCalldata('0x', 1_000n)).rejects.toThrow();
      await (await transactions.sendCalldata('0x', 21_000n)).receipt;
      expect(feeReads()).toBe(2);
    } finally {
      await node.stop();
    }
  });

  it('asks a relay without eth_fillTransaction only for the gas of a call sent without a limit, not again for its nonce or fees', async () => {
    const node = await DevnetNode.start({ chainId: 298, stateFile: null });
    try {
      const { transactions, methods } = await countedTransactions(node.rpcUrl, ['eth_fillTransaction']);
      await (await transactions.sendCalldata('0x', 21_000n)).receipt;
      methods.length = 0;
      // The nonce is counted here and the fees were read a moment ago: the estimate is all it lacks.
      await (await transactions.sendCalldata('0x')).receipt;
      expect(methods).toEqual(['eth_estimateGas', 'eth_sendRawTransaction', 'eth_getTransactionReceipt']);
    } finally {
      await node.stop();
    }
  });
});
