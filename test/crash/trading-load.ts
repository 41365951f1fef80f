import {
  type BookForOrders as Book,
  type Client,
  cancelAllOrders,
  cancelOrders,
  createClient,
  ed25519Signer,
  limitOrderRequest,
  marketOrderRequest,
  type OrderRequest,
  placeOrders,
  secp256k1Signer,
} from '@dex/sdk';
import { type CreatedAccount, sleep } from './service-under-test.js';

/** A seeded generator (mulberry32): a round's load is the same for the same seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An order the service answered as saved. */
export interface AcknowledgedOrder {
  readonly id: number;
  readonly hash: string;
  readonly nonce: bigint;
}

/** What the service answered one wallet: every saved order, accepted cancel and applied floor. */
export class Wallet {
  readonly client: Client;
  readonly orders = new Map<number, AcknowledgedOrder>();
  /** Order id -> when the cancel was answered (unix ms). */
  readonly cancels = new Map<number, number>();
  readonly floors: { floor: bigint; answeredAt: number }[] = [];
  /** Requests that failed (the service or its node was down, or a refusal), by error name or code. */
  readonly failures = new Map<string, number>();

  constructor(
    readonly account: CreatedAccount,
    baseUrl: string,
  ) {
    const signer =
      account.keyType === 'ED25519'
        ? ed25519Signer(account.privateKey, { account: account.accountId })
        : secp256k1Signer(account.privateKey);
    this.client = createClient({ baseUrl, signer, timeoutMs: 5_000 });
  }

  get swapper(): string {
    return this.account.evmAddress.toLowerCase();
  }

  highestFloor(): bigint {
    return this.floors.reduce((high, { floor }) => (floor > high ? floor : high), 0n);
  }

  fail(error: unknown): void {
    const code = (error as { code?: unknown }).code;
    const name = typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown';
    this.failures.set(name, (this.failures.get(name) ?? 0) + 1);
  }
}

const MID_TICKS = 25_000; // 0.25000 USDC per WHBAR on the 0.00001 grid
const pick = <T>(next: () => number, values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;

/**
 * One wallet's mixed load on book 1 until `stop()` says so: limit orders around the mid (about half
 * of them cross), market orders, cancels of its own orders and cancel/all with a floor one above
 * its highest nonce. What the service answers is recorded; what fails is counted and retried.
 */
export async function tradeUntil(wallet: Wallet, book: Book, next: () => number, stop: () => boolean): Promise<void> {
  while (!stop()) {
    const roll = next();
    try {
      if (roll < 0.55) await placeLimits(wallet, book, next);
      else if (roll < 0.7) await placeMarket(wallet, book, next);
      else if (roll < 0.93) await cancelSome(wallet, next);
      else await cancelAll(wallet);
    } catch (error) {
      wallet.fail(error);
      await sleep(100);
    }
    await sleep(10 + next() * 40);
  }
}

async function save(wallet: Wallet, requests: readonly OrderRequest[]): Promise<void> {
  const { orders } = await placeOrders(wallet.client, { orders: requests });
  for (const order of orders) {
    const id = Number(order.meta.id);
    wallet.orders.set(id, { id, hash: order.meta.orderHash.toLowerCase(), nonce: BigInt(order.info.nonce) });
  }
}

function placeLimits(wallet: Wallet, book: Book, next: () => number): Promise<void> {
  const count = 1 + Math.floor(next() * 3);
  const requests = Array.from({ length: count }, () => {
    const ticks = MID_TICKS + 5 * (Math.floor(next() * 9) - 4);
    const tenths = 5 + Math.floor(next() * 26);
    return limitOrderRequest(book, {
      side: next() < 0.5 ? 'buy' : 'sell',
      price: (ticks / 100_000).toFixed(5),
      size: (tenths / 10).toFixed(1),
    });
  });
  return save(wallet, requests);
}

function placeMarket(wallet: Wallet, book: Book, next: () => number): Promise<void> {
  const side = next() < 0.5 ? 'buy' : 'sell';
  // A buy spends 0.1 to 1 USDC; a sell 0.5 to 3 WHBAR, in whole size steps of 0.1.
  const inputAmount =
    side === 'buy' ? 100_000n * BigInt(1 + Math.floor(next() * 10)) : 10_000_000n * BigInt(5 + Math.floor(next() * 26));
  // Half of them opt in to book 1's pool.
  return save(wallet, [marketOrderRequest(book, { side, inputAmount, isAMMEnabled: next() < 0.5 })]);
}

async function cancelSome(wallet: Wallet, next: () => number): Promise<void> {
  const candidates = [...wallet.orders.keys()].filter((id) => !wallet.cancels.has(id)).slice(-20);
  if (candidates.length === 0) return;
  const orderIds = [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, candidates)))];
  const answer = await cancelOrders(wallet.client, { orderIds });
  const answeredAt = Date.now();
  for (const id of answer.accepted) wallet.cancels.set(Number(id), answeredAt);
}

async function cancelAll(wallet: Wallet): Promise<void> {
  let highest = 0n;
  for (const order of wallet.orders.values()) if (order.nonce > highest) highest = order.nonce;
  const floor = highest + 1n;
  if (floor <= wallet.highestFloor()) return;
  const answer = await cancelAllOrders(wallet.client, { nonceFloor: floor.toString() });
  wallet.floors.push({ floor: BigInt(answer.nonceFloor ?? floor.toString()), answeredAt: Date.now() });
}
