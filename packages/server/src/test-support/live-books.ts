import { runOperatorOn, type TraderHost } from './harness.js';

/**
 * The base tokens of the live books, with the decimals they have there. The devnet seed already
 * trades HBAR/USDC and SAUCE/USDC, and a pair has one book: HBAR (8 decimals) and SAUCE come in
 * as tokens of their own here, to list the live grids beside the seeded ones.
 */
const LIVE_TOKENS = [
  { id: '0.0.1456986', symbol: 'HBAR.L', name: 'HBAR as the live books list it (devnet issue)', decimals: 8 },
  { id: '0.0.731861', symbol: 'SAUCE.L', name: 'SAUCE as the live books list it (devnet issue)', decimals: 6 },
  { id: '0.0.10047837', symbol: 'WBTC', name: 'Wrapped Bitcoin (devnet issue)', decimals: 8 },
  { id: '0.0.9470869', symbol: 'WETH', name: 'Wrapped Ether (devnet issue)', decimals: 18 },
  { id: '0.0.10282787', symbol: 'USDT0', name: 'USDT0 (devnet issue)', decimals: 6 },
] as const;

/** One of the live mainnet's books as `live-captures.md` lists it, with a price in its range to trade at. */
export interface LiveBook {
  readonly base: string;
  readonly tickStep: string;
  readonly sizeStep: string;
  /** Display decimals of the base and quote tokens, as `book add` takes them. */
  readonly lotSize: string;
  readonly minNotional: string;
  readonly takerFeePips: number;
  /** The lot size and minimum notional as the live `GET /books` sends them, in raw units. */
  readonly liveLotSize: string;
  readonly liveMinNotional: string;
  /** A display price on the book's tick grid, with digits down to its last tick. */
  readonly price: string;
}

/**
 * The five books of the live mainnet listing (`live-captures.md`), every one against USDC: HBAR,
 * SAUCE, WBTC, WETH and USDT0, on tokens of the same decimals. HBAR/USDC and
 * WETH/USDC have a tick of one size step finer than one raw unit of USDC, and WETH's prices pass
 * 2^53 ticks.
 */
export const LIVE_MAINNET_BOOKS: readonly LiveBook[] = [
  {
    base: 'HBAR.L',
    tickStep: '0.0000001',
    sizeStep: '0.1',
    lotSize: '0.1',
    minNotional: '15',
    takerFeePips: 1200,
    liveLotSize: '10000000',
    liveMinNotional: '15000000',
    price: '0.1712345',
  },
  {
    base: 'SAUCE.L',
    tickStep: '0.00001',
    sizeStep: '0.1',
    lotSize: '0.1',
    minNotional: '15',
    takerFeePips: 1200,
    liveLotSize: '100000',
    liveMinNotional: '15000000',
    price: '0.04321',
  },
  {
    base: 'WBTC',
    tickStep: '0.001',
    sizeStep: '0.00001',
    lotSize: '0.00001',
    minNotional: '15',
    takerFeePips: 1200,
    liveLotSize: '1000',
    liveMinNotional: '15000000',
    price: '97123.457',
  },
  {
    base: 'WETH',
    tickStep: '0.00000000000001',
    sizeStep: '0.0001',
    lotSize: '0.0001',
    minNotional: '15',
    takerFeePips: 1200,
    liveLotSize: '100000000000000',
    liveMinNotional: '15000000',
    price: '3000.12345678901234',
  },
  {
    base: 'USDT0',
    tickStep: '0.0001',
    sizeStep: '0.01',
    lotSize: '0.01',
    minNotional: '15',
    takerFeePips: 600,
    liveLotSize: '10000',
    liveMinNotional: '15000000',
    price: '1.0003',
  },
];

async function operator(host: TraderHost, ...argv: string[]): Promise<string> {
  const { code, out } = await runOperatorOn(host, ...argv);
  if (code !== 0) throw new Error(`${argv.slice(0, 2).join(' ')} failed: ${out}`);
  return out;
}

/**
 * Lists the live mainnet's books with the operator CLI, as an operator would (their tokens too), and
 * returns their book ids in the order of {@link LIVE_MAINNET_BOOKS}. On the devnet chain the new
 * tokens reach the chain when the service starts again.
 */
export async function addLiveMainnetBooks(host: TraderHost): Promise<number[]> {
  for (const token of LIVE_TOKENS) {
    await operator(
      host,
      'token',
      'add',
      '--id',
      token.id,
      '--symbol',
      token.symbol,
      '--name',
      token.name,
      '--decimals',
      String(token.decimals),
    );
  }
  const ids: number[] = [];
  for (const book of LIVE_MAINNET_BOOKS) {
    const added = await operator(
      host,
      'book',
      'add',
      '--base',
      book.base,
      '--quote',
      'USDC',
      '--tick-step',
      book.tickStep,
      '--size-step',
      book.sizeStep,
      '--lot-size',
      book.lotSize,
      '--min-notional',
      book.minNotional,
      '--taker-fee-pips',
      String(book.takerFeePips),
      '--maker-fee-pips',
      '0',
      '--json',
    );
    ids.push((JSON.parse(added) as { id: number }).id);
  }
  return ids;
}
