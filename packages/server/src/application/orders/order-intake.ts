import { performance } from 'node:perf_hooks';
import {
  BUY,
  bytesToHex,
  CoreError,
  type Eip712Domain,
  type OrderHasher,
  type PartialFillLimitOrder,
  parseOrderSignature,
  parseWireOrder,
  type SelfTradePrevention,
  toWireOrder,
  type WireOrder,
} from '@dex/core';
import { AppError } from '../../domain/errors.js';
import { ItemChecks } from '../../domain/orders/order-checks.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { SignatureCheck } from '../../domain/signatures/order-signatures.js';
import type { Clock } from '../../ports/clock.js';
import type { FundsReader } from '../../ports/funds.js';
import { type Metrics, noMetrics, type SaveStage } from '../../ports/metrics.js';
import type { SignatureVerifier } from '../../ports/signature-verifier.js';
import type { Store } from '../../ports/store/ports.js';
import type { FeeRates, FeeSchedule } from '../accounts/fee-schedule.js';
import type { TradingIdentity } from '../auth/trading-identity.js';
import { savedByHash } from '../desk/admission-checks.js';
import type { OrderCandidate, OrderDesk } from '../desk/order-desk.js';
import type { Market, MarketRegistry } from '../markets/market-registry.js';

/** One entry of `POST /orders/save`, as validated by its schema. */
export interface SaveItem {
  readonly order: unknown;
  readonly signature: string;
  readonly orderbookId: number | string;
  readonly type: 'LIMIT' | 'MARKET';
  /** Not signed, like the OCO links: what matching does when the order meets the account's own; default EXPIRE_MAKER. */
  readonly selfTradePrevention?: SelfTradePrevention;
}

export interface OcoLink {
  readonly a: number;
  readonly b: number;
}

/** The record behind each item, in item order, and the OCO pairs by order id. */
export interface SaveOutcome {
  /** Per item: its order's record, and the signed order in wire form. */
  readonly orders: readonly { record: OrderRecord; order: WireOrder }[];
  readonly links: { a: number; b: number }[];
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * An item that passed every check that needs no signature and no store: the candidate it becomes
 * once verified, and what verifying it needs.
 */
interface Checked {
  readonly index: number;
  readonly candidate: Omit<OrderCandidate, 'index' | 'ocoWith'>;
  /** The order in wire form, normalised by the codec. */
  readonly wire: WireOrder;
  readonly signature: Uint8Array;
  readonly digest: Uint8Array;
  /** The order's hash (its candidate's `fields.orderHash`). */
  readonly hash: string;
}

/**
 * The AMM opt-in of a saved item: the `meta.isAMMEnabled` that `/orders/build` returned with the
 * order (clients send the built order back as it came). It is not signed, and need not be: it only
 * lets the owner's own order meet the pool, never below the limit the owner signed.
 */
function optedIn(order: unknown): boolean {
  if (typeof order !== 'object' || order === null || !('meta' in order)) return false;
  const { meta } = order;
  return (
    typeof meta === 'object' && meta !== null && 'isAMMEnabled' in meta && (meta.isAMMEnabled === true || meta.isAMMEnabled === 1)
  );
}

/**
 * `POST /orders/save`, as a pipeline of named stages over the whole batch: parse and check each
 * item, find the ones saved before (idempotency by order hash), check the OCO links and the
 * open-order cap, verify the signatures, then hand the batch to the trading desk, which checks the
 * nonces inside its turn (where no other save can race for them). Any failure rejects the batch
 * before a single order reaches a book.
 */
export class OrderIntake {
  constructor(
    private readonly registry: MarketRegistry,
    private readonly store: Store,
    private readonly desk: OrderDesk,
    private readonly fees: FeeSchedule,
    private readonly hasher: OrderHasher,
    private readonly verifier: SignatureVerifier,
    private readonly domain: Eip712Domain,
    private readonly clock: Clock,
    /** Balances and allowances on the settlement chain; null without one (nothing to reserve). */
    private readonly funds: FundsReader | null,
    private readonly metrics: Metrics = noMetrics,
  ) {}

  /** Saves a batch (see the class); counts its orders by outcome: accepted, replayed, or the code that refused it. */
  async save(identity: TradingIdentity, items: readonly SaveItem[], links: readonly OcoLink[]): Promise<SaveOutcome> {
    try {
      const { outcome, accepted } = await this.saveBatch(identity, items, links);
      this.metrics.orderIntake('accepted', accepted);
      this.metrics.orderIntake('replayed', items.length - accepted);
      return outcome;
    } catch (error) {
      this.metrics.orderIntake(error instanceof AppError ? error.code : 'INTERNAL', items.length);
      throw error;
    }
  }

  private async saveBatch(
    identity: TradingIdentity,
    items: readonly SaveItem[],
    links: readonly OcoLink[],
  ): Promise<{ outcome: SaveOutcome; accepted: number }> {
    const lap = this.stageClock();
    const ratesOf = this.fees.forAccount(identity.account);
    const checked = await Promise.all(items.map((item, index) => this.check(identity, item, index, ratesOf)));
    lap('check');
    const { saved, firstOfHash, fresh } = await this.deduplicate(identity, checked);
    const partners = this.checkLinks(checked, links, firstOfHash, saved);
    // Checked again inside the desk's turn; here it saves verifying a batch that cannot fit.
    this.desk.assertRoomFor(identity.account, fresh.length);
    lap('deduplicate');
    await this.verifySignatures(identity, fresh);
    lap('verify');

    const position = new Map(fresh.map((item, position) => [item.index, position]));
    const candidates: OrderCandidate[] = fresh.map((item) => {
      const partner = partners.get(item.index);
      return { ...item.candidate, index: item.index, ocoWith: partner === undefined ? null : (position.get(partner) ?? null) };
    });
    const accepted = candidates.length === 0 ? [] : await this.accept(identity, candidates, lap);
    for (const record of accepted) saved.set(record.orderHash, record);

    const records = checked.map((item) => saved.get(item.hash) as OrderRecord);
    const outcome = {
      // Equal hashes mean equal orders, so the item's own wire form is the stored one.
      orders: checked.map((item, index) => ({ record: records[index] as OrderRecord, order: item.wire })),
      links: links.map((link) => ({ a: (records[link.a] as OrderRecord).id, b: (records[link.b] as OrderRecord).id })),
    };
    return { outcome, accepted: candidates.length };
  }

  /** Reports each stage's time to the metrics as it ends: `lap(stage)` closes the stage running since the last lap. */
  private stageClock(): (stage: SaveStage) => void {
    let start = performance.now();
    return (stage) => {
      const now = performance.now();
      this.metrics.saveStage(stage, (now - start) / 1_000);
      start = now;
    };
  }

  /**
   * Stages 5 and 6: the holdings, read before the desk's turn (a chain round trip must not hold up
   * other accounts' orders), then the turn. A read of the last moment may stand in, so a market
   * maker's orders share one; a refusal on it is checked again on a fresh read before it stands.
   */
  private async accept(
    identity: TradingIdentity,
    candidates: readonly OrderCandidate[],
    lap: (stage: SaveStage) => void,
  ): Promise<OrderRecord[]> {
    if (this.funds === null) {
      const accepted = await this.desk.accept(identity.account, candidates);
      lap('desk');
      return accepted;
    }
    const tokens = [...new Set(candidates.map((candidate) => candidate.signed.inputToken))];
    const recent = await this.funds.holdings(identity.swapper, tokens, 'recent');
    lap('funds');
    let accepted: OrderRecord[];
    try {
      accepted = await this.desk.accept(identity.account, candidates, recent);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')) throw error;
      accepted = await this.desk.accept(
        identity.account,
        candidates,
        await this.funds.holdings(identity.swapper, tokens, 'fresh'),
      );
    }
    lap('desk');
    return accepted;
  }

  /**
   * Stage 2: the orders saved before (the desk's deduplication rule, asked of the store before
   * verifying); an order of another account under the same hash is refused. Fresh: the first item
   * of each hash not saved yet.
   */
  private async deduplicate(identity: TradingIdentity, checked: readonly Checked[]) {
    const firstOfHash = new Map<string, number>();
    for (const item of checked) if (!firstOfHash.has(item.hash)) firstOfHash.set(item.hash, item.index);
    const saved = await savedByHash(this.store.orders, [...firstOfHash.keys()]);
    for (const item of checked) {
      const record = saved.get(item.hash);
      if (record !== undefined && record.account !== identity.account) {
        throw AppError.atItem(item.index, 'items', 'ORDER_HASH_TAKEN');
      }
    }
    const fresh = checked.filter((item) => firstOfHash.get(item.hash) === item.index && !saved.has(item.hash));
    return { saved, firstOfHash, fresh };
  }

  /** Stage 1: everything about one item that needs neither the store nor its signature. */
  private async check(
    identity: TradingIdentity,
    item: SaveItem,
    index: number,
    ratesOf: (market: Market) => Promise<FeeRates>,
  ): Promise<Checked> {
    const check = new ItemChecks('items', index);
    let order: PartialFillLimitOrder;
    let signature: Uint8Array;
    try {
      order = parseWireOrder(item.order);
      signature = parseOrderSignature(item.signature).signature;
    } catch (error) {
      if (error instanceof CoreError) {
        throw check.fail(error.code === 'INVALID_SIGNATURE' ? 'INVALID_SIGNATURE' : 'INVALID_ORDER', error.shortMessage);
      }
      throw error;
    }
    const market = check.market(this.registry, item.orderbookId);
    const { info } = order;
    if (info.reactor !== this.domain.verifyingContract.toLowerCase()) throw check.fail('WRONG_REACTOR');
    if (info.swapper !== identity.swapper) {
      throw check.fail(
        'SWAPPER_MISMATCH',
        `order.info.swapper must be ${identity.swapper}, the address of the signed-in account`,
      );
    }
    if (info.additionalValidationContract !== ZERO_ADDRESS || info.additionalValidationData !== '0x') {
      throw check.fail('INVALID_ORDER', 'additional validation contracts are not supported; use the zero address and 0x');
    }
    if (item.type === 'MARKET' && order.makerOnly) {
      throw check.fail('INVALID_ORDER', 'a MARKET order takes liquidity, so it cannot be makerOnly');
    }
    check.deadline(info.deadline, this.clock.now());
    const terms = check.terms(
      {
        inputToken: order.input.token,
        inputAmount: order.input.amount,
        outputToken: order.output.token,
        outputAmount: order.output.amount,
      },
      market,
      item.type,
    );
    const rates = await ratesOf(market);
    if (order.maxTakerFeePips < rates.takerFeePips || order.maxMakerFeePips < rates.makerFeePips) {
      throw check.fail(
        'FEE_CAP_TOO_LOW',
        `fee caps must be at least taker ${rates.takerFeePips} and maker ${rates.makerFeePips} pips; build the order again`,
      );
    }
    const digest = this.hasher.digest(order);
    const hash = bytesToHex(digest);
    const wire = toWireOrder(order);
    const fields = {
      orderHash: hash,
      account: identity.account,
      bookId: market.book.id,
      type: item.type,
      side: terms.side === BUY ? 'buy' : 'sell',
      priceTicks: terms.priceTicks,
      nonce: info.nonce,
      deadline: Number(info.deadline),
      signedOrder: JSON.stringify(wire),
      signature: item.signature.toLowerCase(),
      // A book without a pool route takes the order as it would without the opt-in.
      useAmm: market.book.isAmmEnabled && optedIn(item.order),
      selfTradePrevention: item.selfTradePrevention ?? 'EXPIRE_MAKER',
    } as const;
    const signed = {
      swapper: info.swapper,
      makerOnly: order.makerOnly,
      takerOnce: order.takerOnce,
      inputToken: order.input.token.toLowerCase(),
      inputAmount: order.input.amount,
      outputAmount: order.output.amount,
    };
    return { index, candidate: { fields, signed, terms }, wire, signature, digest, hash };
  }

  /** Stage 3: OCO links pair two distinct LIMIT orders of one book, each order in one link at most. */
  private checkLinks(
    checked: readonly Checked[],
    links: readonly OcoLink[],
    firstOfHash: ReadonlyMap<string, number>,
    saved: ReadonlyMap<string, OrderRecord>,
  ): Map<number, number> {
    const partners = new Map<number, number>();
    links.forEach((link, index) => {
      const fail = (message: string) => AppError.atItem(index, 'ocoLinks', 'INVALID_OCO_LINK', message);
      const a = checked[link.a];
      const b = checked[link.b];
      if (a === undefined || b === undefined) throw fail('a and b must be indexes of items in this batch');
      if (a.hash === b.hash) throw fail('an order cannot be linked to itself');
      if (a.candidate.fields.type !== 'LIMIT' || b.candidate.fields.type !== 'LIMIT')
        throw fail('only LIMIT orders can be linked');
      if (a.candidate.fields.bookId !== b.candidate.fields.bookId) throw fail('linked orders must be on the same book');
      const aSaved = saved.get(a.hash);
      const bSaved = saved.get(b.hash);
      if (aSaved !== undefined || bSaved !== undefined) {
        // Replaying a saved batch is fine when the saved orders are already this pair.
        if (aSaved?.ocoOrderId === bSaved?.id && bSaved !== undefined) return;
        throw fail('an order saved earlier cannot be linked now');
      }
      const first = firstOfHash.get(a.hash) as number;
      const second = firstOfHash.get(b.hash) as number;
      if (partners.has(first) || partners.has(second)) throw fail('an order can be in one OCO link only');
      partners.set(first, second);
      partners.set(second, first);
    });
    return partners;
  }

  /** Stage 4: the signatures, in one batch (a worker pool spreads it over the cores). */
  private async verifySignatures(identity: TradingIdentity, fresh: readonly Checked[]): Promise<void> {
    const checks: SignatureCheck[] = fresh.map((item) => ({
      digest: item.digest,
      signature: item.signature,
      signer: identity.signer,
    }));
    const results = await this.verifier.verifyBatch(checks);
    const failed = results.indexOf(false);
    if (failed >= 0) throw AppError.atItem((fresh[failed] as Checked).index, 'items', 'INVALID_SIGNATURE');
  }
}
