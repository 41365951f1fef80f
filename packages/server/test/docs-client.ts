/**
 * A bot client written the way the real service's order book docs show one ("TypeScript Bot
 * Client"): plain `fetch` and `ws`, ethers v5 for EIP-712 (`_signTypedData`, `_TypedDataEncoder`),
 * the ledger SDK's Ed25519 `PrivateKey` for `0.0.X` accounts. It knows nothing of this project's
 * code: it is what an outsider writes from the docs, so the tests that use it hold the service to them.
 */
import type { PrivateKey } from '@hashgraph/sdk';
import { utils, type Wallet } from 'ethers';
import WebSocket from 'ws';

export interface OrderRequest {
  orderbookId: string;
  type: 'LIMIT' | 'MARKET';
  deadline?: string;
  inputToken: string;
  inputAmount: string;
  outputToken: string;
  outputAmount: string;
  recipient?: string;
  makerOnly?: boolean | 0 | 1;
  takerOnce?: boolean | 0 | 1;
  isAMMEnabled?: boolean | 0 | 1;
}

/** What `/orders/build` returns: the order struct to sign and the server's metadata. */
export interface BuiltOrder {
  info: Record<string, string>;
  input: { token: string; amount: string };
  output: { token: string; amount: string; recipient: string };
  makerOnly: boolean;
  takerOnce: boolean;
  maxTakerFeePips: number;
  maxMakerFeePips: number;
  meta: Record<string, unknown>;
}

export interface Domain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: string;
}

/** A dedicated bot account: an EVM wallet (`0x...`), or a `0.0.X` ledger account with an Ed25519 key. */
export type BotKey = { kind: 'ecdsa'; wallet: Wallet } | { kind: 'ed25519'; accountId: string; key: PrivateKey };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}: ${JSON.stringify(body)}`);
  }
}

/** The EIP-712 types of the reactor's order, as its contract declares them. */
export const ORDER_TYPES = {
  PartialFillLimitOrder: [
    { name: 'info', type: 'OrderInfo' },
    { name: 'input', type: 'PartialFillInputToken' },
    { name: 'output', type: 'OutputToken' },
    { name: 'makerOnly', type: 'bool' },
    { name: 'takerOnce', type: 'bool' },
    { name: 'maxTakerFeePips', type: 'uint32' },
    { name: 'maxMakerFeePips', type: 'uint32' },
  ],
  OrderInfo: [
    { name: 'reactor', type: 'address' },
    { name: 'swapper', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'additionalValidationContract', type: 'address' },
    { name: 'additionalValidationData', type: 'bytes' },
  ],
  OutputToken: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'recipient', type: 'address' },
  ],
  PartialFillInputToken: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
};

export class OrderbookApiClient {
  private token = '';

  constructor(private readonly options: { baseUrl: string }) {}

  /** The challenge flow: sign the message with the account key, keep the JWT. */
  async authenticate(key: BotKey): Promise<void> {
    const accountId = key.kind === 'ecdsa' ? key.wallet.address : key.accountId;
    const { message } = await this.post<{ message: string }>('/auth/challenge', { accountId });
    const signature =
      key.kind === 'ecdsa'
        ? await key.wallet.signMessage(message)
        : `0x${Buffer.from(key.key.sign(Buffer.from(message, 'utf8'))).toString('hex')}`;
    const { token } = await this.post<{ token: string }>('/auth/verify', { accountId, signature });
    this.token = token;
  }

  getOrderbooks(): Promise<{ orderbooks: Record<string, unknown>[] }> {
    return this.get('/books');
  }

  getDomain(): Promise<Domain> {
    return this.get('/signature/domain');
  }

  async buildOrders(requests: OrderRequest[]): Promise<BuiltOrder[]> {
    const { orders } = await this.post<{ orders: BuiltOrder[] }>('/orders/build', { orderRequests: requests });
    return orders;
  }

  /** Signs the EIP-712 order fields only (the API's metadata is left out) and prefixes mode byte 0x00. */
  async signOrder(order: BuiltOrder, key: BotKey, domain: Domain): Promise<string> {
    const { meta: _meta, ...fields } = order;
    if (key.kind === 'ecdsa') {
      const signature = await key.wallet._signTypedData(domain, ORDER_TYPES, fields);
      return `0x00${signature.slice(2)}`;
    }
    const digest = utils._TypedDataEncoder.hash(domain, ORDER_TYPES, fields);
    return `0x00${Buffer.from(key.key.sign(utils.arrayify(digest))).toString('hex')}`;
  }

  saveOrders(items: { order: BuiltOrder; signature: string; orderbookId: string; type: string }[]) {
    return this.post<{ orders: (BuiltOrder & { meta: Record<string, unknown> })[] }>('/orders/save', { items });
  }

  cancel(orderIds: (number | string)[]) {
    return this.post<{ status: string; accepted: number[]; skipped: number[] }>('/cancel', { orderIds });
  }

  cancelAll(nonceFloor: string) {
    return this.post<{ status: string; accepted: number[]; skipped: number[] }>('/cancel/all', { nonceFloor });
  }

  getOrderHistory(orderId: number | string) {
    return this.get<{ orderId: number; orderbookId: string; events: Record<string, unknown>[]; total: number }>(
      `/orders/${orderId}/history`,
    );
  }

  getOrders(query = '') {
    return this.get<{ orders: Record<string, unknown>[]; total: number }>(`/orders${query}`);
  }

  /** `/ws/user-events`: every message parsed as JSON and handed over. */
  connectUserEventsWs(books: string[], onMessage: (event: Record<string, unknown>) => void): Promise<WebSocket> {
    return this.connect('user-events', books, onMessage);
  }

  /** `/ws/depth`: every message is a depth diff. */
  connectDepthWs(books: string[], onMessage: (diff: Record<string, unknown>) => void): Promise<WebSocket> {
    return this.connect('depth', books, onMessage);
  }

  private connect(stream: string, books: string[], onMessage: (message: Record<string, unknown>) => void): Promise<WebSocket> {
    const url = `${this.options.baseUrl.replace(/^http/, 'ws')}/ws/${stream}?token=${this.token}&books=${books.join(',')}`;
    const ws = new WebSocket(url);
    ws.on('message', (data) => onMessage(JSON.parse(String(data))));
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  }

  private get<T>(path: string): Promise<T> {
    return this.send<T>('GET', path);
  }

  private post<T>(path: string, body: unknown): Promise<T> {
    return this.send<T>('POST', path, body);
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token !== '') headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.options.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json: unknown = await response.json();
    if (!response.ok) throw new ApiError(response.status, json);
    return json as T;
  }
}
