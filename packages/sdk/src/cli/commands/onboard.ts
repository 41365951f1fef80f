import { BaseError, createPublicClient, createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getOnboardingStatus } from '../../actions/get-onboarding-status.js';
import { onboard, type SendOnboardingTransaction } from '../../actions/onboard.js';
import type { OnboardingTransaction } from '../../actions/onboarding-transactions.js';
import { UsageError, wholeNumber } from '../arguments.js';
import { findBook, tokensOf } from '../book-lookup.js';
import { type Command, CommandError } from '../command.js';
import type { CommandContext } from '../context.js';

const NEEDS_RPC =
  "onboard sends transactions: set DEX_RPC_URL (or --rpc-url) to the chain's JSON-RPC; the devnet's is rpcUrl in DATA_DIR/devnet-chain.json";

/** The chain's JSON-RPC URL: --rpc-url, else DEX_RPC_URL; never quoted back (a provider's URL may hold its key). */
function rpcUrlOf(context: CommandContext): string {
  const given = context.values['rpc-url'];
  const url = given ?? (context.io.env.DEX_RPC_URL?.trim() || undefined);
  if (url === undefined) throw new UsageError(NEEDS_RPC);
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new UsageError(`${given === undefined ? 'DEX_RPC_URL' : '--rpc-url'} must be an http(s) URL`);
  }
  return url;
}

/** viem's short message and details: never the request, which names the RPC URL (it may hold a provider's key). */
function chainFailure(error: unknown): string {
  if (error instanceof BaseError) return [error.shortMessage.replace(/\.$/, ''), error.details].filter(Boolean).join(': ');
  return error instanceof Error ? error.message : String(error);
}

/**
 * A sender of onboarding transactions from the key's own address: signed here, sent through the
 * chain's JSON-RPC, and done once mined (so the status read next shows the step complete).
 */
function keySender(context: CommandContext, key: Uint8Array, rpcUrl: string, onMined: (line: string) => void) {
  const { signal } = context.io;
  const transport = http(rpcUrl, { retryCount: 0, ...(signal === undefined ? {} : { fetchOptions: { signal } }) });
  const account = privateKeyToAccount(`0x${Buffer.from(key).toString('hex')}` as Hex);
  const wallet = createWalletClient({ account, transport });
  const reads = createPublicClient({ transport, pollingInterval: 250 });
  const send: SendOnboardingTransaction = async (transaction: OnboardingTransaction) => {
    let hash: Hex | undefined;
    let receipt: Awaited<ReturnType<typeof reads.waitForTransactionReceipt>>;
    try {
      // chain null: the node's own chain id is signed into the transaction.
      hash = await wallet.sendTransaction({ to: transaction.to, data: transaction.data, chain: null });
      receipt = await reads.waitForTransactionReceipt({ hash });
    } catch (error) {
      throw new CommandError(
        hash === undefined
          ? `The chain refused the ${transaction.step} transaction: ${chainFailure(error)}`
          : `The ${transaction.step} transaction ${hash} was sent, but its receipt could not be read: ${chainFailure(error)}`,
      );
    }
    if (receipt.status !== 'success') throw new CommandError(`The ${transaction.step} transaction ${hash} reverted`);
    onMined(`${transaction.step}  ${hash}  mined in block ${receipt.blockNumber}`);
    return hash;
  };
  return { address: account.address.toLowerCase(), send };
}

export const onboardCommand: Command = {
  name: 'onboard',
  synopsis: '<book> [--rpc-url URL]',
  summary: "approve the book's tokens to Permit2 and the reactor inside Permit2, so the account can trade it",
  help: [
    "  Reads GET /onboarding/<book>/status and sends each pending step from the key's address, one after",
    '  the other, each waited for until mined: the token approves Permit2, then Permit2 approves the reactor',
    "  (the signing domain's), for the largest amount and expiry. Steps done already are skipped.",
    "  --rpc-url URL   the chain's JSON-RPC (default $DEX_RPC_URL; the devnet's is rpcUrl in",
    '                  DATA_DIR/devnet-chain.json); the key pays the gas',
    '  --json          { sent: [{ step, token, to, data, hash }], skipped, status } at the end',
    "  A secp256k1 key only: an Ed25519 ledger account sends these with the ledger's SDK (on the devnet,",
    '  `npm run cli -- account fund` onboards the accounts it funds).',
  ].join('\n'),
  options: ['rpc-url'],
  arguments: [1, 1],
  async run(context, [book = '']) {
    const orderbookId = wholeNumber(book, 'A book id');
    const rpcUrl = rpcUrlOf(context);
    const { signer, transactionKey } = await context.credentials();
    if (signer !== undefined && transactionKey === undefined) {
      throw new UsageError(
        "onboard signs chain transactions with a secp256k1 key; an Ed25519 account sends them with the ledger's SDK",
      );
    }
    const client = await context.accountClient('onboard', { signs: true });
    if (transactionKey === undefined || signer === undefined) throw new UsageError("onboard needs the account's key");
    const { base, quote } = tokensOf(await findBook(client, orderbookId));
    const symbols = new Map([base, quote].map((token) => [token.address.toLowerCase(), token.symbol]));
    const progress = (line: string) => {
      if (!context.json) context.io.out(line);
    };
    const sender = keySender(context, transactionKey(), rpcUrl, progress);
    // The reactor pulls from the orders' swapper: that is the address that must approve.
    if (sender.address !== signer.swapper.toLowerCase()) {
      throw new UsageError(`The key's address ${sender.address} is not the account's swapper ${signer.swapper}`);
    }
    const result = await onboard(client, {
      orderbookId,
      sendTransaction: (transaction) => {
        progress(`${transaction.step}  ${symbols.get(transaction.token) ?? transaction.token}  sending to ${transaction.to}`);
        return sender.send(transaction);
      },
    });
    // Each send waited until mined: the status read now must show every step complete.
    const status = await getOnboardingStatus(client, { orderbookId });
    const summary = status.isComplete
      ? result.sent.length === 0
        ? `onboarded on book ${orderbookId} already: nothing to send`
        : `onboarded on book ${orderbookId}: ${result.sent.length} transaction(s) sent`
      : `still pending on book ${orderbookId}: ${status.pendingSteps.join(', ')}`;
    context.print({ ...result, status }, summary);
    return status.isComplete ? 0 : 1;
  },
};
