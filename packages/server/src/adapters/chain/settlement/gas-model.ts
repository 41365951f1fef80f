import type { UnsettledTrade } from '../../../ports/store/settlement-ports.js';
import { ordersOf } from './trade-orders.js';

/** Share of the transaction gas limit a batch may be estimated to use: room for the estimate's error. */
const BUDGET = 0.95;
/** Weight of past batches after each new one: the estimate follows about the last ten. */
const DECAY = 0.9;
/** Extra gas of an order's first Ed25519 check until receipts tell (about 230k on the devnet's 0x16a). */
const PRIOR_ED25519_GAS = 250_000;
/** Orders remembered as checked on the reactor; older ones count as new again (an overestimate). */
const REMEMBERED_ORDERS = 100_000;
/** Signature bytes of an Ed25519 order: the mode byte and 64 bytes (secp256k1 has 65). */
const ED25519_SIGNATURE_HEX = 2 + 2 * 65;

/**
 * Estimates a settlement batch's gas from receipts, so that a batch fits the transaction gas limit
 * before it is simulated. A fill's gas is about constant, except that the first fill of an order
 * checks its signature, which for Ed25519 (through the ledger's 0x16a contract) costs several times
 * a whole fill: batches rich in new Ed25519 orders use far more gas than others (11M to 17M for 100
 * fills in bench:settlement). The model, gas = perFill × fills + perNewEd25519 × new Ed25519
 * orders, is fitted by least squares over the recent mined batches.
 */
export class GasModel {
  /** Decayed sums of the least-squares fit: f = fills, e = new Ed25519 orders, g = gas. */
  private sums = { ff: 0, fe: 0, ee: 0, fg: 0, eg: 0 };
  private perFill: number | null = null;
  private perNewEd25519 = PRIOR_ED25519_GAS;
  /** Orders whose signature the reactor has checked (or will, in a batch sent), oldest first. */
  private readonly checked = new Set<string>();

  constructor(private readonly txGasLimit: number) {}

  /**
   * How many of these trades (oldest first) fit one transaction: all of them until the model has
   * seen a receipt, then as many as its estimate keeps within the budget, at least one.
   */
  fitting(trades: readonly UnsettledTrade[]): number {
    const { perFill } = this;
    if (perFill === null) return trades.length;
    let gas = 0;
    let count = 0;
    for (const extra of this.newEd25519Orders(trades)) {
      gas += perFill + extra * this.perNewEd25519;
      if (count > 0 && gas > BUDGET * this.txGasLimit) break;
      count++;
    }
    return count;
  }

  /** The trades of a batch sent (their orders are checked once it is mined); how many new Ed25519 orders it has. */
  sent(trades: readonly UnsettledTrade[]): number {
    const newEd25519 = this.newEd25519Orders(trades).reduce((sum, extra) => sum + extra, 0);
    for (const trade of trades) {
      for (const { orderHash: hash } of ordersOf(trade)) {
        this.checked.delete(hash);
        this.checked.add(hash);
      }
    }
    for (const hash of this.checked) {
      if (this.checked.size <= REMEMBERED_ORDERS) break;
      this.checked.delete(hash);
    }
    return newEd25519;
  }

  /** For each trade, how many of its orders are Ed25519 and first used by it. */
  private newEd25519Orders(trades: readonly UnsettledTrade[]): number[] {
    const seen = new Set<string>();
    return trades.map((trade) => {
      let extra = 0;
      for (const side of ordersOf(trade)) {
        if (this.checked.has(side.orderHash) || seen.has(side.orderHash)) continue;
        seen.add(side.orderHash);
        if (side.signature.length === ED25519_SIGNATURE_HEX) extra++;
      }
      return extra;
    });
  }

  /** A mined batch: `fills` fills, `newEd25519` orders checked for the first time, `gasUsed`. */
  mined(fills: number, newEd25519: number, gasUsed: bigint): void {
    const gas = Number(gasUsed);
    const s = this.sums;
    this.sums = {
      ff: DECAY * s.ff + fills * fills,
      fe: DECAY * s.fe + fills * newEd25519,
      ee: DECAY * s.ee + newEd25519 * newEd25519,
      fg: DECAY * s.fg + fills * gas,
      eg: DECAY * s.eg + newEd25519 * gas,
    };
    const { ff, fe, ee, fg, eg } = this.sums;
    const determinant = ff * ee - fe * fe;
    // Both unknowns only when the batches differ enough in their share of new Ed25519 orders.
    if (determinant > 0.01 * ff * ee) {
      const perNewEd25519 = (ff * eg - fe * fg) / determinant;
      if (perNewEd25519 >= 0) this.perNewEd25519 = perNewEd25519;
    }
    this.perFill = Math.max(0, (fg - fe * this.perNewEd25519) / ff);
  }
}
