import { PartialFillLimitOrderReactor } from '@dex/contracts';
import type { ContractFunctionArgs, Hash, TransactionReceipt } from 'viem';
import type { ChainContext } from './chain-context.js';

type ReactorAbi = typeof PartialFillLimitOrderReactor.abi;
type WriteName = 'settle' | 'cancelFor' | 'cancelAllFor';

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
  ): Promise<{ hash: Hash; receipt: Promise<TransactionReceipt> }> {
    const sent = this.tail.then(async () => {
      const { operator, public: reads, reactor } = this.chain;
      const nonce = await reads.getTransactionCount({ address: operator.account.address, blockTag: 'pending' });
      const hash = await operator.writeContract({
        address: reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName,
        args,
        nonce,
        ...(gas === undefined ? {} : { gas }),
      } as Parameters<typeof operator.writeContract>[0]);
      return { hash, receipt: reads.waitForTransactionReceipt({ hash, timeout: 120_000 }) };
    });
    this.tail = sent.catch(() => {});
    return sent;
  }
}
