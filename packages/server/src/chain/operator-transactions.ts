import { PartialFillLimitOrderReactor } from '@dex/contracts';
import {
  type ContractFunctionArgs,
  type EncodeFunctionDataParameters,
  encodeFunctionData,
  type Hash,
  type Hex,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { ChainContext } from './chain-context.js';

type ReactorAbi = typeof PartialFillLimitOrderReactor.abi;
type WriteName = 'settle' | 'cancelFor' | 'cancelAllFor';

/** How long a sent transaction may take to be mined before its sender gives up on it. */
const RECEIPT_TIMEOUT_MS = 120_000;
/** First wait between receipt polls; doubled up to the client's polling interval. */
const FIRST_POLL_MS = 1;

export interface SentTransaction {
  readonly hash: Hash;
  /** Rejects when no receipt came within the timeout (the transaction may still be mined later). */
  readonly receipt: Promise<TransactionReceipt>;
}

/**
 * The operator's transactions to the reactor, sent one at a time so each takes the account's next
 * nonce from the node (no gaps after a failed send), then awaited to their receipt.
 */
export class OperatorTransactions {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly chain: ChainContext) {}

  send<const name extends WriteName>(
    functionName: name,
    args: ContractFunctionArgs<ReactorAbi, 'nonpayable', name>,
    gas?: bigint,
  ): Promise<SentTransaction> {
    const call = { abi: PartialFillLimitOrderReactor.abi, functionName, args };
    const data = encodeFunctionData(call as EncodeFunctionDataParameters<ReactorAbi, WriteName>);
    return this.sendCalldata(data, gas);
  }

  /** Sends a call to the reactor encoded by the caller (the settler sends the bytes it simulated). */
  sendCalldata(data: Hex, gas?: bigint): Promise<SentTransaction> {
    const sent = this.tail.then(async () => {
      const { operator, public: reads, reactor } = this.chain;
      const nonce = await reads.getTransactionCount({ address: operator.account.address, blockTag: 'pending' });
      const hash = await operator.sendTransaction({
        to: reactor,
        data,
        nonce,
        ...(gas === undefined ? {} : { gas }),
      });
      return { hash, receipt: this.receiptOf(hash) };
    });
    this.tail = sent.catch(() => {});
    return sent;
  }

  /**
   * Polls for the receipt: soon after the send at first (a devnet node mines at once, within tens of
   * milliseconds), then at the client's polling interval (a public chain's blocks take seconds).
   */
  private async receiptOf(hash: Hash): Promise<TransactionReceipt> {
    const reads = this.chain.public;
    const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
    let wait = FIRST_POLL_MS;
    for (;;) {
      try {
        return await reads.getTransactionReceipt({ hash });
      } catch (error) {
        if (!(error instanceof TransactionReceiptNotFoundError) || Date.now() > deadline) {
          throw new Error(`no receipt for transaction ${hash}`, { cause: error });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, reads.pollingInterval);
    }
  }
}
