/**
 * The baseline of bench:cancel: the chain's own latency for the same on-chain effect without the
 * service. A trader's wallet sends the reactor `cancel([hash])` itself (one OrderCancelled event,
 * as the relay's cancelFor makes per order), timed from eth_sendRawTransaction to its receipt,
 * polled as the operator polls (1 ms, doubling). The devnet node mines each transaction as it
 * comes (no block interval), so this is the floor any relayed cancel stands on.
 */
import { randomBytes } from 'node:crypto';
import { PartialFillLimitOrderReactor } from '@dex/contracts';
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  parseEventLogs,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { Account } from './accounts.js';

/** A cancel of one hash uses about 50k gas; the limit leaves room without an estimate in the timed part. */
const CANCEL_GAS = 120_000n;
/** The operator's receipt polling (adapters/chain/operator-transactions.ts): 1 ms, doubling, at most 4 s. */
const FIRST_POLL_MS = 1;
const MAX_POLL_MS = 4_000;
const RECEIPT_TIMEOUT_MS = 60_000;

type PublicClient = ReturnType<typeof createPublicClient>;

async function receiptOf(client: PublicClient, hash: Hash) {
  const deadline = performance.now() + RECEIPT_TIMEOUT_MS;
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, MAX_POLL_MS)) {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError) || performance.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Sends `count` bare cancels at `rate` per second, one at a time, from the secp256k1 traders in
 * turn (Ed25519 accounts cannot sign EVM transactions here); returns each one's send-to-receipt
 * milliseconds, sorted. Nonces and fees are read before each clock starts.
 */
export async function bareCancels(
  rpcUrl: string,
  reactor: Address,
  traders: readonly Account[],
  count: number,
  rate: number,
): Promise<number[]> {
  const wallets = traders.flatMap((trader) => (trader.signer.kind === 'secp256k1' ? [trader.signer.wallet] : []));
  if (wallets.length === 0) throw new Error('the baseline needs a secp256k1 trader');
  const client = createPublicClient({ transport: http(rpcUrl) });
  const chainId = await client.getChainId();
  const nonces = await Promise.all(
    wallets.map((wallet) => client.getTransactionCount({ address: wallet.address, blockTag: 'pending' })),
  );
  const latencies: number[] = [];
  const start = performance.now();
  for (let index = 0; index < count; index++) {
    const wait = start + (index * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const turn = index % wallets.length;
    const wallet = wallets[turn] as (typeof wallets)[number];
    const nonce = nonces[turn] as number;
    nonces[turn] = nonce + 1;
    const fees = await client.estimateFeesPerGas();
    const hash: Hex = `0x${randomBytes(32).toString('hex')}`;
    const serializedTransaction = await wallet.signTransaction({
      chainId,
      nonce,
      to: reactor,
      gas: CANCEL_GAS,
      data: encodeFunctionData({ abi: PartialFillLimitOrderReactor.abi, functionName: 'cancel', args: [[hash]] }),
      ...fees,
    });
    const sentAt = performance.now();
    const txHash = await client.sendRawTransaction({ serializedTransaction });
    const receipt = await receiptOf(client, txHash);
    latencies.push(performance.now() - sentAt);
    const events = parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: receipt.logs, eventName: 'OrderCancelled' });
    if (receipt.status !== 'success' || events.length !== 1)
      throw new Error(`bare cancel ${txHash}: ${receipt.status}, ${events.length} OrderCancelled events`);
  }
  return latencies.sort((a, b) => a - b);
}
