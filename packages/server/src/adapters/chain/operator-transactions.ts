import { PartialFillLimitOrderReactor } from '@dex/contracts';
import {
  BaseError,
  type ContractFunctionArgs,
  Eip1559FeesNotSupportedError,
  type EncodeFunctionDataParameters,
  encodeFunctionData,
  type Hash,
  type Hex,
  HttpRequestError,
  keccak256,
  TimeoutError,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { ChainContext } from './chain-context.js';

type ReactorAbi = typeof PartialFillLimitOrderReactor.abi;
type WriteName = 'settle' | 'cancelFor' | 'cancelAllFor' | 'forgetExpired';

/** How long a sent transaction may take to be mined before its sender gives up on it. */
const RECEIPT_TIMEOUT_MS = 120_000;
/** First wait between receipt polls; doubled up to the client's polling interval. */
const FIRST_POLL_MS = 1;
/** How long the node may not know a transaction it was sent before it counts as dropped (a node restarted from an older state). */
const UNKNOWN_FOR_MS = 5_000;
/** How long a receipt is awaited before the node is asked whether it knows the transaction. */
const ASK_AFTER_MS = 1_000;
/** Sends of the same signed transaction through a relay that refuses for now. */
const SEND_ATTEMPTS = 6;
/** Longest wait a relay's Retry-After is followed for, in ms (longer: the caller's own back-off). */
const MAX_RETRY_AFTER_MS = 5_000;
/**
 * How long a fee read serves the transactions after it (ms). A base fee moves by at most 1/8 a
 * block and the estimate's maximum leaves a fifth above it; a transaction refused anyway makes the
 * next one read the fees again.
 */
const FEES_FRESH_MS = 1_000;

export interface SentTransaction {
  readonly hash: Hash;
  /** Rejects when no receipt came within the timeout (the transaction may still be mined later). */
  readonly receipt: Promise<TransactionReceipt>;
}

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

/**
 * The operator's transactions to the reactor, signed here and sent one at a time. The nonce comes
 * from the node for the first transaction and after any failure, and is counted up locally after
 * each accepted one; fees are read at most once a second, and again after any failure.
 */
export class OperatorTransactions {
  private tail: Promise<unknown> = Promise.resolve();
  /** The nonce of the next transaction, or null to ask the node (pending transactions included). */
  private nonce: number | null = null;
  /** Counts the times the chain lost blocks: a receipt awaited from before one will not come. */
  private epoch = 0;
  /**
   * After a loss the node's pending pool may hold a transaction that can never be mined (its nonce
   * past a gap): the next nonce is then the mined count, not the pending one.
   */
  private countMinedOnly = false;
  /** The last fee read and when it was asked for (Date.now()); null: read them for the next transaction. */
  private feesRead: { readonly at: number; readonly fees: Promise<Fees> } | null = null;

  constructor(private readonly chain: ChainContext) {}

  send<const name extends WriteName>(
    functionName: name,
    args: ContractFunctionArgs<ReactorAbi, 'nonpayable', name>,
    gas?: bigint,
  ): Promise<SentTransaction> {
    const call = { abi: PartialFillLimitOrderReactor.abi, functionName, args };
    return this.sendCalldata(encodeFunctionData(call as EncodeFunctionDataParameters<ReactorAbi, WriteName>), gas);
  }

  /**
   * Sends a call to the reactor encoded by the caller. The calldata may still be in the works (the
   * settler passes what its simulation leaves to send): the nonce and fees are read meanwhile, and
   * nothing is sent when it comes out null.
   */
  sendCalldata(calldata: Hex, gas?: bigint): Promise<SentTransaction>;
  sendCalldata(calldata: Promise<Hex | null>, gas?: bigint): Promise<SentTransaction | null>;
  sendCalldata(calldata: Hex | Promise<Hex | null>, gas?: bigint): Promise<SentTransaction | null> {
    // The caller sees its failure; if reading the nonce or fees fails first, nothing else awaits it.
    if (calldata instanceof Promise) calldata.catch(() => {});
    const sent = this.tail.then(async () => {
      const [nonce, fees] = await Promise.all([this.nextNonce(), this.fees()]);
      const data = await calldata;
      if (data === null) return null;
      const { operator, public: reads, reactor, chainId } = this.chain;
      const { account } = operator;
      if (account.signTransaction === undefined) throw new Error('the operator account cannot sign transactions');
      try {
        const serializedTransaction = await account.signTransaction({
          chainId,
          nonce,
          to: reactor,
          data,
          // Unprepared: viem would otherwise fill a nonce and fees first (eth_fillTransaction, or
          // three more calls on a relay without it), and both are known here already.
          gas: gas ?? (await reads.estimateGas({ account, to: reactor, data, prepare: false })),
          ...fees,
        });
        const hash = await this.sendRaw(serializedTransaction);
        this.nonce = nonce + 1;
        return { hash, receipt: this.receiptOf(hash) };
      } catch (error) {
        // A refusal may be for the nonce or for fees the chain has moved past: both are read again.
        this.nonce = null;
        this.feesRead = null;
        throw error;
      }
    });
    this.tail = sent.catch(() => {});
    return sent;
  }

  /**
   * Sends signed bytes, again after a relay's transient refusal (429 after its Retry-After, 502,
   * 503, 504, a timeout): the same bytes are the same transaction, so a second copy is harmless,
   * and a node that already has it says so. Without this, a relay that throttles every send would
   * cost each batch a round of back-off, and could starve settlement for good.
   */
  private async sendRaw(serializedTransaction: Hex): Promise<Hash> {
    const { operator } = this.chain;
    for (let attempt = 1; ; attempt++) {
      try {
        return await operator.sendRawTransaction({ serializedTransaction });
      } catch (error) {
        if (/already known|known transaction/i.test(messageOf(error))) return keccak256(serializedTransaction);
        const wait = transientWaitMs(error, attempt);
        if (wait === null || attempt >= SEND_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /**
   * The chain lost blocks (and its pending transactions): the nonce is asked again, and every
   * receipt still awaited fails at its next poll, so what it carried is sent again.
   */
  chainWentBack(): void {
    this.nonce = null;
    this.feesRead = null;
    this.countMinedOnly = true;
    this.epoch++;
  }

  private async nextNonce(): Promise<number> {
    const { operator, public: reads } = this.chain;
    if (this.nonce === null) {
      const blockTag = this.countMinedOnly ? 'latest' : 'pending';
      this.nonce = await reads.getTransactionCount({ address: operator.account.address, blockTag });
      this.countMinedOnly = false;
    }
    return this.nonce;
  }

  /** The fees of the last read while it is fresh, else of a new one; a failed read is not kept. */
  private fees(): Promise<Fees> {
    const now = Date.now();
    if (this.feesRead !== null && now - this.feesRead.at < FEES_FRESH_MS) return this.feesRead.fees;
    const fees = this.readFees();
    this.feesRead = { at: now, fees };
    fees.catch(() => {
      if (this.feesRead?.fees === fees) this.feesRead = null;
    });
    return fees;
  }

  /** EIP-1559 fees where the chain has a base fee, a gas price where it does not (as viem chooses). */
  private async readFees(): Promise<Fees> {
    const reads = this.chain.public;
    try {
      return await reads.estimateFeesPerGas();
    } catch (error) {
      if (error instanceof Eip1559FeesNotSupportedError) return { gasPrice: await reads.getGasPrice() };
      throw error;
    }
  }

  /**
   * Polls for the receipt: soon after the send at first (a devnet node mines at once, within tens of
   * milliseconds), then at the client's polling interval (a public chain's blocks take seconds).
   * Without one in time, the nonce is read from the node again: the transaction may be gone.
   */
  private async receiptOf(hash: Hash): Promise<TransactionReceipt> {
    const reads = this.chain.public;
    const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
    const epoch = this.epoch;
    let wait = FIRST_POLL_MS;
    let unknownSince: number | null = null;
    for (;;) {
      try {
        return await reads.getTransactionReceipt({ hash });
      } catch (error) {
        const lost = this.epoch !== epoch;
        // A receipt usually comes within milliseconds: the node is asked about the transaction only
        // once the wait lasts, not on every poll of every settlement.
        const waited = Date.now() - (deadline - RECEIPT_TIMEOUT_MS) > ASK_AFTER_MS;
        if (!lost && waited && error instanceof TransactionReceiptNotFoundError) {
          unknownSince = await this.unknownSince(hash, unknownSince);
        }
        const dropped = unknownSince !== null && Date.now() - unknownSince > UNKNOWN_FOR_MS;
        if (!(error instanceof TransactionReceiptNotFoundError) || lost || dropped || Date.now() > deadline) {
          this.nonce = null;
          const why = lost
            ? 'the chain lost the blocks after it was sent'
            : dropped
              ? 'the node no longer knows it'
              : 'no receipt';
          throw new Error(`${why}: transaction ${hash}`, { cause: error });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, reads.pollingInterval);
    }
  }

  /**
   * Since when the node has not known the transaction (neither pending nor mined, or pending behind
   * a nonce gap), or null if it knows it; a failed question changes nothing.
   */
  private async unknownSince(hash: Hash, since: number | null): Promise<number | null> {
    const reads = this.chain.public;
    try {
      const sent = await reads.getTransaction({ hash });
      if (sent.blockNumber !== null) return null;
      // Waiting behind a nonce gap (the node went back under it) is as good as unknown.
      const mined = await reads.getTransactionCount({ address: sent.from, blockTag: 'latest' });
      if (sent.nonce <= mined) return null;
      this.countMinedOnly = true;
      return since ?? Date.now();
    } catch (error) {
      return error instanceof TransactionNotFoundError ? (since ?? Date.now()) : since;
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof BaseError ? `${error.shortMessage} ${error.details}` : String(error);
}

/** How long to wait before sending again after `error`, or null when it is no transient refusal. */
function transientWaitMs(error: unknown, attempt: number): number | null {
  const timedOut = error instanceof BaseError && error.walk((cause) => cause instanceof TimeoutError) !== null;
  const http = error instanceof BaseError ? error.walk((cause) => cause instanceof HttpRequestError) : null;
  const status = http instanceof HttpRequestError ? http.status : undefined;
  if (!timedOut && (status === undefined || ![429, 502, 503, 504].includes(status))) return null;
  const retryAfter = Number(http instanceof HttpRequestError ? http.headers?.get('retry-after') : undefined);
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter * 1_000, MAX_RETRY_AFTER_MS);
  return 250 * attempt;
}
