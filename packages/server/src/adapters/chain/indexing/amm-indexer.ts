import { type AmmDeployment, AmmPair } from '@dex/contracts';
import type { Address } from 'viem';
import { type CreatedPair, foldAmmEvents } from '../../../domain/amm/amm-batch.js';
import { chainEntityId } from '../../../domain/amm/contract-ids.js';
import type { Logger } from '../../../ports/logger.js';
import type { PairLedgerIds } from '../../../ports/pair-ledger-ids.js';
import type { PairReserves, PoolReservesListener } from '../../../ports/settlement-desk.js';
import type { ChainPool } from '../../../ports/store/amm-ports.js';
import type { Store } from '../../../ports/store/ports.js';
import type { ChainContext } from '../chain-context.js';
import { AmmLogReader } from './amm-log-reader.js';
import type { RecordedBlocks } from './reactor-indexer.js';

/** Most blocks per run read and written together; halved when a query fails, as the reactor's indexer does. */
const MAX_BLOCK_RANGE = 2_000n;

/**
 * Follows the AMM (pair factory, pairs, farm, SAUCE staking) from its own cursor, in block order,
 * and records pools, farms, stakes and their history in the store: each run of blocks and the
 * cursor in one transaction, so a crash at any point keeps both or neither and a restart reads on
 * from the cursor. When the chain lost blocks, `rewindTo` drops what was recorded from them and the
 * next catch-up reads the new ones.
 */
export class AmmIndexer {
  readonly cursorName: string;
  private catching: Promise<void> | null = null;
  /** The last catch-up or rewind: each waits for the one before, so that a rewind never meets a run in flight. */
  private queue: Promise<void> = Promise.resolve();
  private range = MAX_BLOCK_RANGE;
  /** Whether the pools recorded before pairs had ledger ids have theirs; asked once per process. */
  private named = false;
  private readonly reader: AmmLogReader;
  /** Each pair's tokens (token0, token1), read once. */
  private readonly tokens = new Map<string, Promise<readonly [string, string]>>();

  constructor(
    private readonly chain: Pick<ChainContext, 'public' | 'chainId' | 'indexFrom'>,
    amm: AmmDeployment,
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly pairIds: PairLedgerIds,
    private readonly recorded: RecordedBlocks | null = null,
    private readonly listener: PoolReservesListener | null = null,
  ) {
    this.cursorName = `amm:${chain.chainId}:${amm.factory.toLowerCase()}`;
    this.reader = new AmmLogReader(chain, amm);
  }

  /** Records every AMM event from the cursor to the head; concurrent calls share one run. */
  catchUp(): Promise<void> {
    this.catching ??= this.inTurn(() => this.readToHead()).finally(() => {
      this.catching = null;
    });
    return this.catching;
  }

  /** Drops what was recorded from blocks after `block` (after any run under way) and moves the cursor back to it. */
  rewindTo(block: bigint): Promise<void> {
    return this.inTurn(async () => {
      const cursor = await this.store.amm.cursor(this.cursorName);
      if (cursor === null || cursor <= block) return;
      await this.store.amm.rewindTo(this.cursorName, block);
      this.logger.warn({ block: block.toString(), from: cursor.toString() }, 'the chain lost AMM blocks; reading them again');
    });
  }

  /** Tells the listener every recorded pair's reserves, as of the cursor: what the engines start from. */
  reportReserves(): Promise<void> {
    return this.inTurn(async () => {
      const cursor = await this.store.amm.cursor(this.cursorName);
      if (cursor === null || this.listener === null) return;
      const pairs = [...(await this.store.amm.pairs())];
      await this.report(
        pairs.map(([pair, { state }]) => ({ pair, reserve0: state.reserveA, reserve1: state.reserveB })),
        cursor,
      );
    });
  }

  /** Tells the listener every recorded pair's reserves as the head block has them. */
  refreshReserves(): Promise<void> {
    return this.inTurn(async () => {
      if (this.listener === null) return;
      const block = await this.chain.public.getBlockNumber({ cacheTime: 0 });
      const pairs = [...(await this.store.amm.pairs()).keys()];
      const syncs = await Promise.all(
        pairs.map(async (pair) => {
          const [reserve0, reserve1] = await this.chain.public.readContract({
            address: pair as Address,
            abi: AmmPair.abi,
            functionName: 'getReserves',
            blockNumber: block,
          });
          return { pair, reserve0, reserve1 };
        }),
      );
      await this.report(syncs, block);
    });
  }

  private async report(syncs: readonly { pair: string; reserve0: bigint; reserve1: bigint }[], block: bigint): Promise<void> {
    const { listener } = this;
    if (listener === null || syncs.length === 0) return;
    const updates: PairReserves[] = [];
    for (const { pair, reserve0, reserve1 } of syncs) {
      const [token0, token1] = await this.tokensOf(pair);
      updates.push({ token0, token1, reserve0, reserve1, block });
    }
    listener.poolReservesSynced(updates);
  }

  private tokensOf(pair: string): Promise<readonly [string, string]> {
    let tokens = this.tokens.get(pair);
    if (tokens === undefined) {
      const read = (functionName: 'token0' | 'token1') =>
        this.chain.public.readContract({ address: pair as Address, abi: AmmPair.abi, functionName });
      tokens = Promise.all([read('token0'), read('token1')]).then(([a, b]) => [a.toLowerCase(), b.toLowerCase()] as const);
      tokens.catch(() => this.tokens.delete(pair));
      this.tokens.set(pair, tokens);
    }
    return tokens;
  }

  private inTurn(task: () => Promise<void>): Promise<void> {
    const run = this.queue.catch(() => {}).then(task);
    this.queue = run;
    return run;
  }

  private async readToHead(): Promise<void> {
    // Never a cached head: a catch-up asked for after a transaction must see its block.
    const head = await this.chain.public.getBlockNumber({ cacheTime: 0 });
    if (!this.named) await this.nameRecordedPairs();
    let from = ((await this.store.amm.cursor(this.cursorName)) ?? this.chain.indexFrom - 1n) + 1n;
    while (from <= head) {
      const to = from + this.range - 1n < head ? from + this.range - 1n : head;
      try {
        await this.readRange(from, to);
      } catch (error) {
        if (to === from) throw error;
        this.range = (to - from + 1n) / 2n;
        continue;
      }
      from = to + 1n;
      this.range = this.range * 2n < MAX_BLOCK_RANGE ? this.range * 2n : MAX_BLOCK_RANGE;
    }
  }

  private async readRange(from: bigint, to: bigint): Promise<void> {
    const pairs = await this.store.amm.pairs();
    const logs = await this.reader.read(from, to, [...pairs.keys()]);
    const changes = foldAmmEvents(logs.events, pairs, await this.store.amm.stakingTotals());
    const newPools = await Promise.all(changes.created.map((pair) => this.describe(pair)));
    const { created: _created, ...rest } = changes;
    await this.store.amm.commit({ ...rest, newPools, cursorName: this.cursorName, cursor: to });
    for (const block of logs.blocks) this.recorded?.remember(block.number, block.hash);
    // The last Sync of each pair in the run: its reserves hold until the run's end.
    const syncs = new Map<string, { pair: string; reserve0: bigint; reserve1: bigint }>();
    for (const event of logs.events) if (event.kind === 'sync') syncs.set(event.pair, event);
    // Recorded already: a failure to tell the engines must not read the run again.
    await this.report([...syncs.values()], to).catch((error: unknown) =>
      this.logger.warn({ err: error }, "the engines could not be told the pools' reserves"),
    );
    if (newPools.length > 0) this.logger.info({ pools: newPools.map((pool) => pool.poolId) }, 'recorded new AMM pools');
  }

  /** Gives the pools recorded under their pair's address (by an earlier version) the pair's ledger id. */
  private async nameRecordedPairs(): Promise<void> {
    const unnamed = await this.store.amm.unnamedPairs();
    const names = await Promise.all(
      unnamed.map(async (pair) => ({ poolId: pair.poolId, contractId: await this.pairIds.idOf(pair) })),
    );
    await this.store.amm.namePairs(names);
    if (names.length > 0)
      this.logger.info({ pools: names.map((name) => name.poolId) }, "gave recorded pools their pairs' ledger ids");
    this.named = true;
  }

  /**
   * A new pair as the store keeps it: its ledger id, and its LP token's name, symbol and decimals read from the pair.
   * They never change, so they are read at the head: a devnet node keeps no old states to read at.
   */
  private async describe(pair: CreatedPair): Promise<ChainPool> {
    const address = pair.address as Address;
    const read = <name extends 'name' | 'symbol' | 'decimals'>(functionName: name) =>
      this.chain.public.readContract({ address, abi: AmmPair.abi, functionName });
    const [name, symbol, decimals, id] = await Promise.all([
      read('name'),
      read('symbol'),
      read('decimals'),
      this.pairIds.idOf(pair),
    ]);
    return {
      poolId: pair.poolId,
      address: pair.address,
      contractId: id,
      lpTokenId: id,
      lpTokenName: name,
      lpTokenSymbol: symbol,
      lpTokenDecimals: Number(decimals),
      tokenAId: chainEntityId(pair.token0),
      tokenBId: chainEntityId(pair.token1),
      createdBlock: pair.block,
      atMs: pair.atMs,
    };
  }
}
