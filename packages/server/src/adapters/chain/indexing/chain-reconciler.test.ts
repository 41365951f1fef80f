import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../composition/logging.js';
import type { Store } from '../../../ports/store/ports.js';
import { ManualClock } from '../../../test-support/manual-clock.js';
import { tempDataDir } from '../../../test-support/temp-data-dir.js';
import { openSqliteStore } from '../../sqlite/sqlite-store.js';
import { ChainReconciler } from './chain-reconciler.js';

/**
 * The chain's side as the reconciler sees it, recorded: the watch's looks answer when the test
 * says, and every rewind of the indexer is a reconciliation from that block.
 */
class RecordedChain {
  readonly rewinds: bigint[] = [];
  readonly forgotten: bigint[] = [];
  private answerLook: ((common: bigint | null) => void) | undefined;

  readonly watch = {
    look: () =>
      new Promise<bigint | null>((resolve) => {
        this.answerLook = resolve;
      }),
    forgetAfter: (block: bigint) => {
      this.forgotten.push(block);
    },
  };
  readonly indexer = {
    rewindTo: async (block: bigint) => {
      this.rewinds.push(block);
    },
    catchUp: async () => {},
  };
  readonly transactions = { chainWentBack: () => {} };

  /** The look under way finds the chain lost the blocks after `common` (null: lost nothing). */
  lookFinds(common: bigint | null): void {
    if (this.answerLook === undefined) throw new Error('no look is under way');
    this.answerLook(common);
  }
}

describe('reconciling with a devnet node started again', () => {
  let data: ReturnType<typeof tempDataDir>;
  let store: Store;
  let chain: RecordedChain;
  let reconciler: ChainReconciler;

  beforeEach(async () => {
    data = tempDataDir();
    store = await openSqliteStore(join(data.dir, 'devnet.sqlite'));
    chain = new RecordedChain();
    reconciler = new ChainReconciler({
      store,
      indexer: chain.indexer,
      transactions: chain.transactions,
      watch: chain.watch,
      clock: new ManualClock(),
      logger: createLogger('silent'),
    });
  });

  afterEach(async () => {
    await store.close();
    data.remove();
  });

  it('reconciles once when a look under way found the loss itself: what was sent since is on the new chain', async () => {
    const following = reconciler.follow();
    const restarted = reconciler.restarted(138n);
    chain.lookFinds(138n);
    expect(await following).toBe(true);
    expect(await restarted).toBe(true);
    expect(chain.rewinds).toEqual([138n]);
  });

  it("reconciles from the restart's head after a look under way that found nothing lost", async () => {
    const following = reconciler.follow();
    const restarted = reconciler.restarted(138n);
    chain.lookFinds(null);
    await Promise.all([following, restarted]);
    expect(chain.rewinds).toEqual([138n]);
    expect(chain.forgotten).toEqual([138n]);
  });

  it("reconciles again from the restart's head when the look under way found a loss above it", async () => {
    const following = reconciler.follow();
    const restarted = reconciler.restarted(138n);
    chain.lookFinds(150n);
    await Promise.all([following, restarted]);
    expect(chain.rewinds).toEqual([150n, 138n]);
  });

  it('has a check made during the restart wait for its reconciliation, and look again only after it', async () => {
    const restarted = reconciler.restarted(138n);
    const verified = reconciler.verify();
    expect(await restarted).toBe(true);
    expect(await verified).toBe(true);
    expect(chain.rewinds).toEqual([138n]);
  });
});
