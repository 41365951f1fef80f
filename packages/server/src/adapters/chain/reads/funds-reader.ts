import { PartialFillLimitOrderReactor, Permit2, TestToken } from '@dex/contracts';
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  parseAbi,
} from 'viem';
import { AppError } from '../../../domain/errors.js';
import { TtlCache } from '../../../domain/ttl-cache.js';
import type { Clock } from '../../../ports/clock.js';
import type { FundsReader, Holding, HoldingsRead, TokenOnboarding } from '../../../ports/funds.js';
import type { Logger } from '../../../ports/logger.js';
import type { ChainContext } from '../chain-context.js';

/** How long a funds read may take before the chain counts as not answering (ms). */
export const FUNDS_READ_TIMEOUT_MS = 2_000;
/** How old the holdings read last may be to stand in while the chain does not answer (ms). */
export const STALE_HOLDINGS_MS = 10 * 60_000;
/**
 * How old holdings may be to stand in for a `recent` read (ms): a market maker's orders a moment
 * apart share one chain read. Below the ledger's block time, so mostly the same block.
 */
export const RECENT_HOLDINGS_MS = 1_000;
/** Owner-token holdings remembered for that stand-in. */
const REMEMBERED_HOLDINGS = 100_000;

export interface FundsReaderOptions {
  readonly timeoutMs?: number;
  readonly staleMs?: number;
  readonly recentMs?: number;
}

/** The ledger's token facade (HIP-719): whether the caller holds the token's association. */
const ASSOCIATION_ABI = parseAbi(['function isAssociated() view returns (bool)']);

/** One token's reads: the balance, the ERC-20 allowance to Permit2, and the reactor's allowance inside it. */
interface TokenReads {
  readonly balance: bigint;
  readonly toPermit2: bigint;
  /** Zero once expired. */
  readonly toReactor: bigint;
}

/**
 * Reads balances and reactor allowances of ERC-20 tokens (the ledger's tokens answer the same
 * calls). The reactor pulls through Permit2, as the live one does: what it may move is the
 * smaller of the token's allowance to Permit2 and the reactor's unexpired allowance there. Reads issued together go out as one JSON-RPC batch. A read the chain does not answer
 * within {@link FUNDS_READ_TIMEOUT_MS} falls back to the holdings read last (up to
 * {@link STALE_HOLDINGS_MS} old), so an outage of the node does not stop the accounts that traded
 * recently; without them it fails as 503 FUNDS_UNAVAILABLE. A stale balance is no weaker than a
 * fresh one: the owner can move tokens away right after any check, and settlement catches it. A
 * `recent` read is answered from reads younger than {@link RECENT_HOLDINGS_MS} when it has them.
 */
export class ChainFundsReader implements FundsReader {
  private readonly known: TtlCache<Holding>;
  private readonly recent: TtlCache<Holding>;
  private readonly timeoutMs: number;
  private permit2Read: Promise<Address> | null = null;

  constructor(
    private readonly chain: Pick<ChainContext, 'public' | 'reactor'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: FundsReaderOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? FUNDS_READ_TIMEOUT_MS;
    this.known = new TtlCache(options.staleMs ?? STALE_HOLDINGS_MS, REMEMBERED_HOLDINGS);
    this.recent = new TtlCache(options.recentMs ?? RECENT_HOLDINGS_MS, REMEMBERED_HOLDINGS);
  }

  async holdings(owner: string, tokens: readonly string[], read: HoldingsRead = 'fresh'): Promise<Map<string, Holding>> {
    const account = getAddress(owner);
    const unique = [...new Set(tokens.map((token) => token.toLowerCase()))];
    const key = (token: string) => `${account}:${token}`;
    if (read === 'recent') {
      const now = this.clock.now();
      const recent = unique.map((token) => [token, this.recent.get(key(token), now)] as const);
      if (recent.every(([, holding]) => holding !== undefined)) return new Map(recent as (readonly [string, Holding])[]);
    }
    try {
      const fresh = await this.withinTimeout(this.read(account, unique));
      const now = this.clock.now();
      for (const [token, holding] of fresh) {
        this.known.set(key(token), holding, now);
        this.recent.set(key(token), holding, now);
      }
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

  async onboarding(owner: string, tokens: readonly string[]): Promise<Map<string, TokenOnboarding>> {
    const account = getAddress(owner);
    const unique = [...new Set(tokens.map((token) => token.toLowerCase()))];
    const steps = await Promise.all(
      unique.map(async (token) => {
        const [reads, associated] = await Promise.all([this.readToken(account, token), this.associated(account, token)]);
        return [token, { associated, approvedToPermit2: reads.toPermit2 > 0n, approvedToReactor: reads.toReactor > 0n }] as const;
      }),
    );
    return new Map(steps);
  }

  async permit2(): Promise<string> {
    return (await this.permit2Address()).toLowerCase();
  }

  private async read(account: Address, tokens: readonly string[]): Promise<Map<string, Holding>> {
    const holdings = await Promise.all(
      tokens.map(async (token) => {
        const { balance, toPermit2, toReactor } = await this.readToken(account, token);
        return [token, { balance, allowance: toPermit2 < toReactor ? toPermit2 : toReactor }] as const;
      }),
    );
    return new Map(holdings);
  }

  private async readToken(account: Address, token: string): Promise<TokenReads> {
    const address = getAddress(token);
    const permit2 = await this.permit2Address();
    const erc20 = (functionName: 'balanceOf' | 'allowance', args: readonly Address[]) =>
      this.chain.public.readContract({ address, abi: TestToken.abi, functionName, args } as Parameters<
        ChainContext['public']['readContract']
      >[0]) as Promise<bigint>;
    const [balance, toPermit2, [amount, expiration]] = await Promise.all([
      erc20('balanceOf', [account]),
      erc20('allowance', [account, permit2]),
      this.chain.public.readContract({
        address: permit2,
        abi: Permit2.abi,
        functionName: 'allowance',
        args: [account, address, this.chain.reactor],
      }),
    ]);
    const expired = BigInt(expiration) * 1_000n < BigInt(this.clock.now());
    return { balance, toPermit2, toReactor: expired ? 0n : amount };
  }

  /**
   * Whether the account holds the token's association, as the token itself answers (the ledger's
   * token facade); a token that does not know the call (a plain ERC-20) needs no association.
   */
  private async associated(account: Address, token: string): Promise<boolean> {
    try {
      return await this.chain.public.readContract({
        account,
        address: getAddress(token),
        abi: ASSOCIATION_ABI,
        functionName: 'isAssociated',
      });
    } catch (error) {
      if (refusedCall(error)) return true;
      throw error;
    }
  }

  /** The Permit2 contract the reactor pulls through, read from the reactor once. */
  private permit2Address(): Promise<Address> {
    this.permit2Read ??= this.chain.public
      .readContract({ address: this.chain.reactor, abi: PartialFillLimitOrderReactor.abi, functionName: 'permit2' })
      .catch((error: unknown) => {
        this.permit2Read = null;
        throw error;
      });
    return this.permit2Read;
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

/** Whether a call failed because the contract refused it (reverted, or has no such function), not because the node did not answer. */
function refusedCall(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof ContractFunctionRevertedError || cause instanceof ContractFunctionZeroDataError) !==
      null
  );
}
