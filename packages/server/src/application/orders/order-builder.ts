import {
  type Address,
  BUY,
  bytesToHex,
  type Eip712Domain,
  type OrderHasher,
  type PartialFillLimitOrder,
  toWireOrder,
  type WireOrder,
} from '@dex/core';
import { makerCharge } from '../../domain/markets/default-fees.js';
import { ItemChecks, MAX_DEADLINE_SECONDS, MIN_DEADLINE_SECONDS } from '../../domain/orders/order-checks.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store/ports.js';
import type { FeeSchedule } from '../accounts/fee-schedule.js';
import type { TradingIdentity } from '../auth/trading-identity.js';
import type { MarketRegistry } from '../markets/market-registry.js';

/** One entry of `POST /orders/build`, as validated by its schema. */
export interface OrderRequest {
  readonly orderbookId: number | string;
  readonly type: 'LIMIT' | 'MARKET';
  readonly deadline?: string | number;
  readonly inputToken: string;
  readonly inputAmount: string;
  readonly outputToken: string;
  readonly outputAmount: string;
  readonly recipient?: string;
  readonly makerOnly?: RequestFlag;
  readonly takerOnce?: RequestFlag;
  readonly isAMMEnabled?: RequestFlag;
}

/** A request flag: a boolean, or the 0/1 that `GET /books` uses for its own flags. */
export type RequestFlag = boolean | 0 | 1;

const isSet = (flag: RequestFlag | undefined): boolean => flag === true || flag === 1;

export interface BuiltOrder extends WireOrder {
  readonly meta: {
    readonly orderbookId: string;
    readonly type: 'LIMIT' | 'MARKET';
    readonly side: 'buy' | 'sell';
    /** Whether the book's pool may fill part of the order: the request's opt-in, on a book that routes to one. */
    readonly isAMMEnabled: boolean;
    /** The EIP-712 digest to sign: what an Ed25519 key signs directly. */
    readonly orderHash: string;
  };
}

/** Time a client has between build and save: the build floor sits this far above the save minimum. */
export const SIGNING_ALLOWANCE_SECONDS = 30;
/** Deadline of a market order: it trades at once; the deadline only bounds its settlement. */
export const MARKET_DEADLINE_SECONDS = 5 * 60;
const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';
const DEADLINE = /^[0-9]{1,20}$/;

/**
 * `POST /orders/build`: checks each request against its book, assigns strictly increasing nonces,
 * clamps deadlines into the allowed window, sets the account's fee caps, and returns the typed data
 * to sign. Nothing is stored as an order; the nonces are remembered until their deadline.
 */
export class OrderBuilder {
  constructor(
    private readonly registry: MarketRegistry,
    private readonly store: Store,
    private readonly fees: FeeSchedule,
    private readonly hasher: OrderHasher,
    private readonly domain: Eip712Domain,
    private readonly clock: Clock,
  ) {}

  async build(identity: TradingIdentity, requests: readonly OrderRequest[]): Promise<BuiltOrder[]> {
    const nowMs = this.clock.now();
    const now = Math.floor(nowMs / 1000);
    const ratesOf = this.fees.forAccount(identity.account);
    const drafts = await Promise.all(
      requests.map(async (request, index) => {
        const check = new ItemChecks('orderRequests', index);
        const market = check.market(this.registry, request.orderbookId);
        if (request.type === 'MARKET' && isSet(request.makerOnly)) {
          throw check.fail('INVALID_ORDER', 'a MARKET order takes liquidity, so it cannot be makerOnly');
        }
        const amounts = {
          inputToken: check.signedToken(market, request.inputToken),
          inputAmount: check.amount(request.inputAmount, 'inputAmount'),
          outputToken: check.signedToken(market, request.outputToken),
          outputAmount: check.amount(request.outputAmount, 'outputAmount'),
        };
        const terms = check.terms(amounts, market, request.type);
        const fees = await ratesOf(market);
        return { request, market, amounts, terms, fees, deadline: this.deadlineOf(request, now, check) };
      }),
    );

    const latest = drafts.reduce((max, draft) => (draft.deadline > max ? draft.deadline : max), 0n);
    const nonces = await this.store.nonces.issue(
      identity.account,
      drafts.map((draft) => draft.market.book.id),
      // Time-based floor: nonces keep rising even if this store is ever replaced.
      BigInt(nowMs) * 1_000n,
      Number(latest) * 1000,
    );

    return drafts.map((draft, index) => {
      const order: PartialFillLimitOrder = {
        info: {
          reactor: this.domain.verifyingContract.toLowerCase() as Address,
          swapper: identity.swapper,
          nonce: nonces[index] as bigint,
          deadline: draft.deadline,
          additionalValidationContract: ZERO_ADDRESS,
          additionalValidationData: '0x',
        },
        input: { token: draft.amounts.inputToken.toLowerCase() as Address, amount: draft.amounts.inputAmount },
        output: {
          token: draft.amounts.outputToken.toLowerCase() as Address,
          amount: draft.amounts.outputAmount,
          recipient: (draft.request.recipient?.toLowerCase() as Address | undefined) ?? identity.swapper,
        },
        makerOnly: isSet(draft.request.makerOnly),
        takerOnce: isSet(draft.request.takerOnce),
        maxTakerFeePips: draft.fees.takerFeePips,
        // A rebate is no fee: the signed cap is of what the maker may pay.
        maxMakerFeePips: makerCharge(draft.fees.makerFeePips).feePips,
      };
      return {
        ...toWireOrder(order),
        meta: {
          orderbookId: String(draft.market.book.id),
          type: draft.request.type,
          side: draft.terms.side === BUY ? 'buy' : 'sell',
          // Only a book that routes to its pool honours the opt-in; elsewhere it would change nothing.
          isAMMEnabled: isSet(draft.request.isAMMEnabled) && draft.market.book.isAmmEnabled,
          orderHash: bytesToHex(this.hasher.digest(order)),
        },
      };
    });
  }

  /** LIMIT: the requested deadline clamped into the window (with time to sign); MARKET: a short fixed one. */
  private deadlineOf(request: OrderRequest, now: number, check: ItemChecks): bigint {
    const earliest = BigInt(now + MIN_DEADLINE_SECONDS + SIGNING_ALLOWANCE_SECONDS);
    const latest = BigInt(now + MAX_DEADLINE_SECONDS);
    if (request.type === 'MARKET') return BigInt(now + MARKET_DEADLINE_SECONDS);
    // A limit order without a deadline lives as long as the rules allow.
    if (request.deadline === undefined) return latest;
    const text = String(request.deadline);
    if (!DEADLINE.test(text)) throw check.fail('VALIDATION_FAILED', 'deadline must be unix seconds as an integer string');
    const asked = BigInt(text);
    return asked < earliest ? earliest : asked > latest ? latest : asked;
  }
}
