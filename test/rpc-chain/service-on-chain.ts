import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { BUY, SELL, type Side } from '@dex/core';
import { getAbiItem, getAddress, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { type Harness, ManualClock, startHarness, Trader } from '../../packages/server/src/test-support/harness.js';
import { GRID, operator } from '../../packages/server/src/test-support/operator-cli.js';
import { until } from '../../packages/server/src/test-support/until.js';
import { CHAIN_ID, type ExternalChain, fundAndOnboard } from './external-chain.js';

/**
 * The service on CHAIN=rpc against `rpcUrl` (the node, or a relay in front of it), with the
 * chain's two tokens listed and book 1 between them, added through the operator CLI.
 */
export async function startServiceOnChain(chain: ExternalChain, rpcUrl: string): Promise<Harness> {
  const h = await startHarness(
    {
      CHAIN: 'rpc',
      CHAIN_RPC_URL: rpcUrl,
      CHAIN_ID: String(CHAIN_ID),
      CHAIN_DEPLOYMENT: chain.deploymentFile,
      OPERATOR_PRIVATE_KEY: chain.deployerKey,
      SEED_DEVNET: 'false',
    },
    { clock: new ManualClock(Date.now()) },
  );
  try {
    const cli = operator(h.services.store, h.clock);
    for (const [index, token] of chain.tokens.entries()) {
      const added = await cli(
        'token',
        'add',
        ...['--id', `0.0.${5_001 + index}`, '--evm', token.address, '--symbol', token.symbol],
        ...['--name', token.symbol, '--decimals', String(token.decimals)],
      );
      if (added.code !== 0) throw new Error(added.err);
    }
    const book = await cli('book', 'add', '--base', 'AAA', '--quote', 'BBB', ...GRID);
    if (book.code !== 0) throw new Error(book.err);
    // The operator wrote through the service's own connection: a reload, not a poll for others' changes.
    await h.services.registry.load();
    if (h.services.registry.get(1) === undefined) throw new Error('the service has no book 1');
    return h;
  } catch (error) {
    await h.close();
    throw error;
  }
}

/** A trader of a fresh key, funded and onboarded on the chain through Permit2. */
export async function onboardedTrader(h: Harness, chain: ExternalChain): Promise<Trader> {
  const key = generatePrivateKey();
  await fundAndOnboard(chain, key, 1_000n);
  return Trader.secp256k1(h, key);
}

interface TapeTrade {
  readonly tradeId: number;
  readonly transactionHash: string | null;
}

/** The book's tape once it holds `count` trades, each with the transaction that settled it. */
export async function settledTape(h: Harness, count: number, timeoutMs = 60_000): Promise<TapeTrade[]> {
  return until(
    async () => {
      h.services.settlement?.settler.wake();
      h.clock.advance(2_000);
      const reply = await h.app.inject({ method: 'GET', url: '/trades/1?limit=500' });
      const trades = (reply.json() as { trades: TapeTrade[] }).trades;
      const settled = trades.every(
        (trade) => typeof trade.transactionHash === 'string' && trade.transactionHash.startsWith('0x'),
      );
      return trades.length >= count && settled ? trades : undefined;
    },
    `${count} trades to settle`,
    timeoutMs,
    250,
  );
}

/** Answers a client retries, as the error table says: the chain did not answer in time. */
const RETRYABLE = new Set(['FUNDS_UNAVAILABLE']);

/**
 * Places one limit order of 10 AAA on book 1 as a client would through a relay under stress: a
 * retryable 503 is tried again after a second (up to 20 times), any other refusal fails the test.
 */
export async function placeRetrying(trader: Trader, side: Side, priceTicks: number): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const reply = await trader.save(await trader.build([trader.limitRequest(1, side, priceTicks, 1_000)]));
    if (reply.status === 200) return Number(reply.body.orders[0]?.meta.id);
    const code = String((reply.body as { code?: unknown }).code);
    if (reply.status !== 503 || !RETRYABLE.has(code) || attempt === 20) {
      throw new Error(`save answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** A crossing pair of orders on book 1. */
export async function cross(maker: Trader, taker: Trader, priceTicks = 10_000): Promise<void> {
  await placeRetrying(maker, SELL, priceTicks);
  await placeRetrying(taker, BUY, priceTicks);
}

export async function historyTypes(trader: Trader, id: number): Promise<string[]> {
  const reply = await trader.request<{ events: { type: string }[] }>('GET', `/orders/${id}/history`);
  return reply.body.events.map((event) => event.type);
}

/** Waits until the order is CANCELED: the service saw its cancel confirmed on chain. */
export function cancelFinal(trader: Trader, id: number, timeoutMs = 60_000): Promise<true> {
  return until(
    async () => ((await historyTypes(trader, id)).includes('CANCELED') ? true : undefined),
    `order ${id} to be cancelled on chain`,
    timeoutMs,
    250,
  );
}

/** The reactor's `OrderCancelled` events of a swapper, read from the node itself. */
export function cancelledOnChain(chain: ExternalChain, swapper: string) {
  return chain.clients.public.getLogs({
    address: chain.deployment.reactor.address,
    event: getAbiItem({ abi: PartialFillLimitOrderReactor.abi, name: 'OrderCancelled' }),
    args: { swapper: getAddress(swapper) },
    fromBlock: 0n,
  });
}

/** The reactor's `Filled` events of a fill id, read from the node itself. */
export async function filledEvents(chain: ExternalChain, fillId: number): Promise<{ transactionHash: Hex }[]> {
  return chain.clients.public.getLogs({
    address: chain.deployment.reactor.address,
    event: getAbiItem({ abi: PartialFillLimitOrderReactor.abi, name: 'Filled' }),
    args: { fillId: BigInt(fillId) },
    fromBlock: 0n,
  });
}
