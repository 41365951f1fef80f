import type { RunningServer } from '@dex/server';
import { runOperatorOn, until } from '@dex/server/test-support';

/**
 * Funds an address on the devnet chain the server runs with the operator CLI, as a user would
 * (`account fund`): gas, 1,000 of every token and an unlimited reactor allowance.
 */
export async function fundOnDevnet(server: RunningServer, address: string): Promise<void> {
  const { code, out } = await runOperatorOn(server, 'account', 'fund', '--account', address);
  if (code !== 0) throw new Error(`account fund failed: ${out}`);
}

/**
 * Book 1's pool on the devnet chain: 4,000 WHBAR and 1,000 USDC (0.25 USDC a WHBAR, before its
 * fee), added with the operator CLI. Resolves once book 1's engine holds it, so orders meet it.
 */
export async function addBookOnePool(server: RunningServer): Promise<void> {
  const { code, out } = await runOperatorOn(server, 'pool', 'add-liquidity', 'WHBAR', 'USDC', '4000', '1000');
  if (code !== 0) throw new Error(`pool add-liquidity failed: ${out}`);
  await until(
    async () => {
      await server.services.settlement?.amm?.catchUp();
      return server.services.engines.engine(1)?.pool;
    },
    "book 1's engine to hold its pool",
    20_000,
  );
}

/** A trade an order took on book 1, as the store holds it: a swap with the pool has no maker order. */
export interface TakenTrade {
  readonly makerOrderId: number | null;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
}

/** The trades the order took on book 1 (as taker), oldest first. */
export async function tradesTakenBy(server: RunningServer, orderId: number | string): Promise<TakenTrade[]> {
  const { trades } = await server.services.store.trades.page(1, 'asc', 0, 1_000);
  return trades
    .filter((trade) => trade.takerOrderId === Number(orderId))
    .map(({ makerOrderId, baseAmount, quoteAmount }) => ({ makerOrderId, baseAmount, quoteAmount }));
}
