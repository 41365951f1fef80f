import type { Eip712Domain } from '@dex/core';
import type { Client } from '../client.js';
import {
  InvalidParameterError,
  type InvalidResponseError,
  OnboardingMismatchError,
  OnboardingTransactionError,
} from '../errors.js';
import type { OnboardingStatus, OnboardingStep } from '../order-types.js';
import { type OrderbookId, orderbookIdParameter } from '../utils/parameters.js';
import { type GetBooksErrorType, getBooks } from './get-books.js';
import { type GetOnboardingStatusErrorType, getOnboardingStatus } from './get-onboarding-status.js';
import type { GetSignatureDomainErrorType } from './get-signature-domain.js';
import { type OnboardingTransaction, onboardingTransactions, PERMIT2_ADDRESS } from './onboarding-transactions.js';
import { domainOf } from './sign-orders.js';

/**
 * Sends one onboarding transaction from the trading account (`to`, `data`, no value) and resolves
 * with its hash (or the ledger's transaction id) once the caller counts it as done: mined, for a
 * caller that wants the next read of the status to show the step complete.
 */
export type SendOnboardingTransaction = (transaction: OnboardingTransaction) => Promise<string>;

export interface OnboardParameters {
  readonly orderbookId: OrderbookId;
  /**
   * Sends each pending step, one after the other: a wallet's `sendTransaction`, a ledger SDK
   * `ContractExecuteTransaction`, anything. The SDK holds no chain connection of its own.
   */
  readonly sendTransaction: SendOnboardingTransaction;
  /** The signing domain, whose `verifyingContract` is the reactor to approve; fetched (once per client) when absent. */
  readonly domain?: Eip712Domain | undefined;
  /** The Permit2 to approve the tokens to; default the canonical {@link PERMIT2_ADDRESS}. */
  readonly permit2?: string | undefined;
}

/** A transaction sent, with what `sendTransaction` resolved to. */
export interface SentOnboardingTransaction extends OnboardingTransaction {
  readonly hash: string;
}

export interface OnboardReturnType {
  /** The pending steps, sent in order. */
  readonly sent: readonly SentOnboardingTransaction[];
  /** The steps that were complete already. */
  readonly skipped: readonly OnboardingStep[];
}

export type OnboardErrorType =
  | OnboardingMismatchError
  | OnboardingTransactionError
  | InvalidParameterError
  | InvalidResponseError
  | GetOnboardingStatusErrorType
  | GetSignatureDomainErrorType
  | GetBooksErrorType;

/** The most books `GET /books` gives in one page. */
const BOOKS_PAGE = 500;

/** The book's tokens from `GET /books`, for a status without them (the live service's answer). */
async function bookTokens(client: Client, orderbookId: string): Promise<{ base: string; quote: string }> {
  for (let page = 1; ; page++) {
    const { orderbooks, total, limit } = await getBooks(client, { page, limit: BOOKS_PAGE });
    const book = orderbooks.find((candidate) => String(candidate.id) === orderbookId);
    if (book !== undefined) return { base: book.baseTokenEvmAddress, quote: book.quoteTokenEvmAddress };
    if (orderbooks.length === 0 || page * limit >= total) {
      throw new InvalidParameterError('orderbookId', `GET /books lists no order book ${orderbookId}`);
    }
  }
}

/** Refuses a contract the status names that is not the one this client trusts. */
function checkNamed(field: 'reactor' | 'permit2', expected: string, named: string | null | undefined): void {
  if (named === undefined || named === null) return;
  if (named.toLowerCase() !== expected.toLowerCase()) {
    throw new OnboardingMismatchError(field, expected.toLowerCase(), named.toLowerCase());
  }
}

/**
 * Onboards the account on a book, as the live service asks before an account can trade: reads
 * `GET /onboarding/:orderbookId/status` and sends each pending step through `sendTransaction`, in
 * order (see {@link onboardingTransactions}): each token approves Permit2, then Permit2 approves the
 * reactor. The reactor is the signing domain's and Permit2 the canonical one (or `permit2`); a
 * status naming others throws `OnboardingMismatchError` before anything is sent. A failed send
 * throws `OnboardingTransactionError` naming the step and those sent before it; calling `onboard`
 * again takes up what is still pending.
 *
 * @example
 * const wallet = createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(rpcUrl) });
 * const { sent } = await onboard(client, {
 *   orderbookId: 1,
 *   sendTransaction: async ({ to, data }) => {
 *     const hash = await wallet.sendTransaction({ to, data });
 *     await publicClient.waitForTransactionReceipt({ hash });
 *     return hash;
 *   },
 * });
 */
export async function onboard(client: Client, parameters: OnboardParameters): Promise<OnboardReturnType> {
  const orderbookId = orderbookIdParameter(parameters.orderbookId);
  const { sendTransaction } = parameters;
  if (typeof sendTransaction !== 'function') {
    throw new InvalidParameterError('sendTransaction', 'sendTransaction must be a function that sends { to, data }');
  }
  const status: OnboardingStatus = await getOnboardingStatus(client, { orderbookId });
  const skipped = status.completedSteps;
  if (status.pendingSteps.length === 0) return { sent: [], skipped };

  const reactor = (parameters.domain ?? (await domainOf(client))).verifyingContract;
  const permit2 = parameters.permit2 ?? PERMIT2_ADDRESS;
  checkNamed('reactor', reactor, status.reactor);
  checkNamed('permit2', permit2, status.permit2);
  const tokens =
    status.baseToken !== undefined && status.quoteToken !== undefined
      ? { base: status.baseToken, quote: status.quoteToken }
      : await bookTokens(client, orderbookId);
  const transactions = onboardingTransactions({
    steps: status.pendingSteps,
    baseToken: tokens.base,
    quoteToken: tokens.quote,
    reactor,
    permit2,
  });

  const sent: SentOnboardingTransaction[] = [];
  for (const transaction of transactions) {
    let hash: string;
    try {
      hash = await sendTransaction(transaction);
    } catch (error) {
      throw new OnboardingTransactionError(
        transaction.step,
        transaction.token,
        sent.map((done) => done.step),
        error,
      );
    }
    sent.push({ ...transaction, hash });
  }
  return { sent, skipped };
}
