import { BlockNotFoundError, type Hash } from 'viem';
import type { ChainContext } from '../chain-context.js';
import type { RecordedBlocks } from './reactor-indexer.js';

/** A block the service saw on the chain. */
interface SeenBlock {
  readonly number: bigint;
  readonly hash: Hash;
}

/** Blocks remembered; at one look per half second, a few minutes of history. */
const REMEMBERED = 512;

/**
 * Notices, while the service runs, that the chain lost blocks it had shown (a devnet node started
 * again from an older state file, a node operator's restore, a reorganisation) and finds the last
 * block that still holds.
 *
 * It remembers the head at each look and the blocks that hold what the store recorded (receipts
 * and events the indexer applied). A look checks the newest block of the earlier looks and every
 * block recorded since: a chain restarted lower soon mines new blocks at the lost heights, and may
 * pass them before the next look, so a block is only ever compared by its hash. When one no longer
 * holds, the highest block of the earlier looks that does is the common block, found by bisection
 * over those blocks (all from one chain: below a lost block all are kept, above it all are lost).
 */
export class ChainWatch implements RecordedBlocks {
  /** Blocks of earlier looks, by number. */
  private seen: SeenBlock[] = [];
  /** Blocks recorded since the last look, not yet checked. */
  private recorded: SeenBlock[] = [];

  constructor(private readonly chain: Pick<ChainContext, 'public'>) {}

  remember(number: bigint, hash: Hash): void {
    // A batch's receipt and each of its events name the same block: it is checked once.
    const last = this.recorded.at(-1);
    if (last?.number !== number || last.hash !== hash) this.recorded.push({ number, hash });
  }

  /** Checks what it saw; answers the last block that still holds when blocks were lost, else null. */
  async look(): Promise<bigint | null> {
    // Blocks recorded while this look runs wait for the next; a look that fails keeps them all.
    const recorded = this.recorded.slice();
    const newest = this.seen.at(-1);
    const checks = newest === undefined ? recorded : [newest, ...recorded];
    let lost = false;
    for (const block of checks) {
      if (!(await this.holds(block))) {
        lost = true;
        break;
      }
    }
    this.recorded.splice(0, recorded.length);
    let common: bigint | null = null;
    if (lost) {
      const held = await this.commonBlock();
      this.seen = this.seen.filter((block) => block.number <= held);
      common = held;
    } else {
      for (const block of recorded) this.add(block);
    }
    const head = await this.chain.public.getBlock({ blockTag: 'latest' });
    if (head.hash !== null && head.number !== null) this.add({ number: head.number, hash: head.hash });
    return common;
  }

  /** Forgets the blocks after `number`: the chain was started again from a state with that head. */
  forgetAfter(number: bigint): void {
    this.seen = this.seen.filter((block) => block.number <= number);
    this.recorded = [];
  }

  /** Keeps a block that holds, in number order. */
  private add(block: SeenBlock): void {
    let at = this.seen.length;
    while (at > 0 && (this.seen[at - 1] as SeenBlock).number > block.number) at--;
    if (this.seen[at - 1]?.number === block.number) this.seen[at - 1] = block;
    else this.seen.splice(at, 0, block);
    if (this.seen.length > REMEMBERED) this.seen.splice(1, 1); // the oldest stays: a bound for any loss
  }

  private async holds(block: SeenBlock): Promise<boolean> {
    try {
      return (await this.chain.public.getBlock({ blockNumber: block.number })).hash === block.hash;
    } catch (error) {
      if (!(error instanceof BlockNotFoundError)) throw error;
      // Missing below the head: a node that keeps a bounded history dropped it, not a lost block
      // (a chain that lost the block and mined past its height would have another block there).
      return (await this.chain.public.getBlockNumber({ cacheTime: 0 })) > block.number;
    }
  }

  /** The highest block of the earlier looks that holds; one below the oldest when none does. */
  private async commonBlock(): Promise<bigint> {
    const oldest = this.seen[0];
    if (oldest === undefined) return 0n;
    if (!(await this.holds(oldest))) return oldest.number > 0n ? oldest.number - 1n : 0n;
    let low = 0;
    let high = this.seen.length;
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      if (await this.holds(this.seen[middle] as SeenBlock)) low = middle;
      else high = middle;
    }
    return (this.seen[low] as SeenBlock).number;
  }
}
