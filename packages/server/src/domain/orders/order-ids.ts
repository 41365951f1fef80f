/**
 * Order ids of one engine. Engines of several shards write one store, so each takes the ids of
 * its own residue: shard `s` of `n` hands out ids `≡ s (mod n)`, rising, after the highest id in
 * the store. One engine (the default) hands out every id.
 */
export class OrderIds {
  private nextId = 0;

  constructor(
    lastId: number,
    private readonly shard = 0,
    private readonly shards = 1,
  ) {
    this.continueAfter(lastId);
  }

  /** The next ids are the shard's after `lastId` (after a rebuild from the store). */
  continueAfter(lastId: number): void {
    const next = lastId + 1;
    this.nextId = next + ((((this.shard - next) % this.shards) + this.shards) % this.shards);
  }

  take(): number {
    const id = this.nextId;
    this.nextId += this.shards;
    return id;
  }
}
