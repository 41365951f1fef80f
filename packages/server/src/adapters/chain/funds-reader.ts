import { TestToken } from '@dex/contracts';
import { type Address, getAddress } from 'viem';
import { AppError } from '../../domain/errors.js';
import { TtlCache } from '../../domain/ttl-cache.js';
import type { Clock } from '../../ports/clock.js';
import type { FundsReader, Holding } from '../../ports/funds.js';
import type { Logger } from '../../ports/logger.js';
import type { ChainContext } from './chain-context.js';

/** How long a funds read may take before the chain counts as not answering (ms). */
export const FUNDS_READ_TIMEOUT_MS = 2_000;
/** How old the holdings read last may be to stand in while the chain does not answer (ms). */
export const STALE_HOLDINGS_MS = 10 * 60_000;
/** Owner-token holdings remembered for that stand-in. */
const REMEMBERED_HOLDINGS = 100_000;

export interface FundsReaderOptions {
  readonly timeoutMs?: number;
  readonly staleMs?: number;
}

/**
 * Reads balances and reactor allowances of ERC-20 tokens (the ledger's tokens answer the same
 * calls). Reads issued together go out as one JSON-RPC batch. A read the chain does not answer
 * within {@link FUNDS_READ_TIMEOUT_MS} falls back to the holdings read last (up to
 * {@link STALE_HOLDINGS_MS} old), so an outage of the node does not stop the accounts that traded
 * recently; without them it fails as 503 FUNDS_UNAVAILABLE. A stale balance is no weaker than a
 * fresh one: the owner can move tokens away right after any check, and settlement catches it.
 */
export class ChainFundsReader implements FundsReader {
  private readonly known: TtlCache<Holding>;
  private readonly timeoutMs: number;

  constructor(
    private readonly chain: Pick<ChainContext, 'public' | 'reactor'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: FundsReaderOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? FUNDS_READ_TIMEOUT_MS;
    this.known = new TtlCache(options.staleMs ?? STALE_HOLDINGS_MS, REMEMBERED_HOLDINGS);
  }

  async holdings(owner: string, tokens: readonly string[]): Promise<Map<string, Holding>> {
    const account = getAddress(owner);
    const unique = [...new Set(tokens.map((token) => token.toLowerCase()))];
    const key = (token: string) => `${account}:${token}`;
    try {
      const fresh = await this.withinTimeout(this.read(account, unique));
      const now = this.clock.now();
      for (const [token, holding] of fresh) this.known.set(key(token), holding, now);
      return fresh;
    } catch (error) {
      const now = this.clock.now();
      const last = unique.map((token) => [token, this.known.get(key(token), now)] as const);
      if (last.some(([, holding]) => holding === undefined)) {
        throw new AppError('FUNDS_UNAVAILABLE', undefined, { cause: error });
      }
      this.logger.warn({ err: error, owner: account }, 'the chain did not answer a funds check; the holdings read last stand in');
      return new Map(last as (readonly [string, Holding])[]);
    }
  }

  private async read(account: Address, tokens: readonly string[]): Promise<Map<string, Holding>> {
    const read = (token: string, functionName: 'balanceOf' | 'allowance') =>
      this.chain.public.readContract({
        address: getAddress(token) as Address,
        abi: TestToken.abi,
        functionName,
        args: functionName === 'balanceOf' ? [account] : [account, this.chain.reactor],
      } as Parameters<ChainContext['public']['readContract']>[0]) as Promise<bigint>;
    const holdings = await Promise.all(
      tokens.map(async (token) => {
        const [balance, allowance] = await Promise.all([read(token, 'balanceOf'), read(token, 'allowance')]);
        return [token, { balance, allowance }] as const;
      }),
    );
    return new Map(holdings);
  }

  private withinTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the chain did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    // The read may still settle after the timeout: nobody waits for it then.
    work.catch(() => {});
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }
}
