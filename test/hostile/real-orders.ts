/** Real signed orders over HTTP (build, sign, save), for bodies worth mutating and depth changes a stream must see. */
import { orderTypedData, parseWireOrder } from '@dex/core';
import type { PrivateKeyAccount } from 'viem/accounts';

interface Built {
  meta: { orderbookId: string; type: string };
  [field: string]: unknown;
}

/** Book 1 of the devnet seed: WHBAR (8 decimals) / USDC (6), tick 0.00001, size step 0.1. */
const WHBAR = '0x00000000000000000000000000000000000003e9';
const USDC = '0x00000000000000000000000000000000000003ea';

async function call(url: string, jwt: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${jwt}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as unknown;
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** The request of a sell of 2 WHBAR on book 1 at 0.25 + `ticks` ticks. */
export function sellRequest(ticks: number) {
  return {
    orderbookId: 1,
    type: 'LIMIT',
    inputToken: WHBAR,
    inputAmount: '200000000',
    outputToken: USDC,
    outputAmount: String(500_000 + 20 * ticks),
  };
}

/** A wallet's session: builds, signs and saves orders as a client would. */
export class OrderSession {
  constructor(
    private readonly url: string,
    readonly jwt: string,
    private readonly account: PrivateKeyAccount,
  ) {}

  /** A signed save item of a sell on book 1 (not saved). */
  async signedItem(ticks: number): Promise<Record<string, unknown>> {
    const domain = (await call(this.url, this.jwt, 'GET', '/signature/domain')) as Parameters<typeof orderTypedData>[0];
    const { orders } = (await call(this.url, this.jwt, 'POST', '/orders/build', { orderRequests: [sellRequest(ticks)] })) as {
      orders: Built[];
    };
    const order = orders[0] as Built;
    const { meta: _meta, ...wire } = order;
    const signature = await this.account.signTypedData(orderTypedData(domain, parseWireOrder(wire)));
    return { order, signature: `0x00${signature.slice(2)}`, orderbookId: order.meta.orderbookId, type: order.meta.type };
  }

  /** Saves a sell on book 1 (a new depth level for each `ticks`): its order id. */
  async place(ticks: number): Promise<string> {
    const saved = (await call(this.url, this.jwt, 'POST', '/orders/save', { items: [await this.signedItem(ticks)] })) as {
      orders: { meta: { id: string } }[];
    };
    return saved.orders[0]?.meta.id ?? '';
  }
}
