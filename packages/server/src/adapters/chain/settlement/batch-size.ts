/**
 * How many fills the next settlement batch takes. A batch the simulation refuses as a whole (over
 * the gas limit, typically) is halved; after each mined batch the size doubles back, but only up to
 * a ceiling below the size that was refused, which then creeps up by one fill per mined batch. A
 * fill's gas varies (the first fill of an order pays for checking its signature, 230k gas more for
 * Ed25519), so a size that overflowed once likely overflows again soon: without the ceiling, every
 * such stretch would cost a refused simulation and a half-size transaction.
 */
export class BatchSize {
  private size: number;
  private ceiling: number;

  constructor(private readonly max: number) {
    this.size = max;
    this.ceiling = max;
  }

  /**
   * Fills of the next batch. While a batch is in flight, the next is read before that one is
   * mined: it takes the size it will have once it is (if it is not, the next batch is not sent).
   */
  next(inFlight: boolean): number {
    return inFlight ? this.grown() : this.size;
  }

  /** The simulation refused a batch of `fills` as a whole. */
  refused(fills: number): void {
    this.size = Math.max(1, Math.floor(fills / 2));
    this.ceiling = Math.max(1, Math.floor((fills * 7) / 8));
  }

  /** A batch was mined. */
  mined(): void {
    this.size = this.grown();
    this.ceiling = Math.min(this.max, this.ceiling + 1);
  }

  private grown(): number {
    return Math.min(this.ceiling, this.size * 2);
  }
}
