import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { decodeSignedOrder } from '../../../domain/orders/stored-signed-order.js';
import type { Clock } from '../../../ports/clock.js';
import type { Logger } from '../../../ports/logger.js';
import type { Store } from '../../../ports/store/ports.js';
import type { ChainContext } from '../chain-context.js';
import { contractRevertOf } from '../contract-revert.js';
import type { OperatorTransactions } from '../operator-transactions.js';
import { WorkLoop } from './work-loop.js';

/** Most orders in one forgetExpired transaction: about 15k gas each. */
const MAX_ORDERS = 200;
/** How long the sweep rests after finding nothing expired. */
const REST_MS = 30_000;

/**
 * Frees the reactor's record of expired orders (`forgetExpired`): their filled amounts, flags and
 * cancellations. An expired order can never settle, so that storage is dead; left there, the
 * chain's state grows with every order ever traded or cancelled, and a devnet node, which rebuilds
 * its state root from all of it at every block, spends more CPU on every transaction.
 */
export class ExpiredOrderSweeper {
  private readonly loop: WorkLoop;
  private restUntil = 0;
  /** Whether the reactor has `forgetExpired`: a devnet's reactor deployed by an older build does not. */
  private forgets: Promise<boolean> | null = null;

  constructor(
    private readonly chain: ChainContext,
    private readonly transactions: OperatorTransactions,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.loop = new WorkLoop(() => this.sweepNext(), logger, 'forgetting expired orders');
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Forgets one batch of expired orders; false when none waits (or the reactor cannot). */
  private async sweepNext(): Promise<boolean> {
    const now = this.clock.now();
    if (now < this.restUntil) return false;
    const candidates = await this.store.expiredOrders.unforgotten(Math.floor(now / 1000), MAX_ORDERS);
    // Expired by the chain's clock too (the block that mines the call is no earlier than the
    // latest); the node is asked only when the store has something.
    const chainNow = candidates.length === 0 ? 0 : Number((await this.chain.public.getBlock({ blockTag: 'latest' })).timestamp);
    const expired = candidates.filter((order) => order.deadline < chainNow);
    if (expired.length === 0 || !(await this.reactorForgets())) {
      this.restUntil = now + REST_MS;
      return false;
    }
    const traceless = expired.filter((order) => !order.onChain).map((order) => order.orderId);
    if (traceless.length > 0) await this.store.expiredOrders.markForgotten(traceless, 0n);
    const held = expired.filter((order) => order.onChain);
    if (held.length === 0) return true;
    const { receipt } = await this.transactions.send('forgetExpired', [
      held.map((order) => decodeSignedOrder(order.signedOrder)),
    ]);
    const mined = await receipt;
    if (mined.status !== 'success') throw new Error(`forgetExpired reverted (transaction ${mined.transactionHash})`);
    await this.store.expiredOrders.markForgotten(
      held.map((order) => order.orderId),
      mined.blockNumber,
    );
    return true;
  }

  private reactorForgets(): Promise<boolean> {
    this.forgets ??= canForgetExpired(this.chain).then(
      (forgets) => {
        if (!forgets) {
          this.logger.warn(
            { reactor: this.chain.reactor },
            'the reactor cannot forget expired orders (deployed by an older build): its state keeps growing',
          );
        }
        return forgets;
      },
      (error: unknown) => {
        this.forgets = null;
        throw error;
      },
    );
    return this.forgets;
  }
}

/**
 * Whether the reactor has `forgetExpired`: a devnet's reactor deployed by an older build does not.
 * Only the reactor's refusal answers no; a node that did not answer throws.
 */
export async function canForgetExpired(chain: Pick<ChainContext, 'public' | 'operator' | 'reactor'>): Promise<boolean> {
  try {
    await chain.public.simulateContract({
      account: chain.operator.account,
      address: chain.reactor,
      abi: PartialFillLimitOrderReactor.abi,
      functionName: 'forgetExpired',
      args: [[]],
    });
    return true;
  } catch (error) {
    if (contractRevertOf(error) !== null) return false;
    throw error;
  }
}
