import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { BUY, orderTypedData, parseWireOrder, type Side, type WireOrder } from '@dex/core';
import type { FastifyInstance } from 'fastify';
import type { Hex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { DevnetAccountKeys } from '../adapters/accounts/devnet-account-keys.js';
import { DevnetIssuer } from '../adapters/chain/devnet/devnet-issuer.js';
import type { ChainReader } from '../adapters/chain/reads/chain-reader.js';
import type { ServedDeps } from '../composition/server.js';

/** A reply as tests look at it. */
export interface Reply<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  readonly headers: Record<string, unknown>;
}

/** A built order as the API returns it (wire form plus meta). */
export interface BuiltOrder extends WireOrder {
  meta: { orderbookId: string; type: 'LIMIT' | 'MARKET'; side: 'buy' | 'sell'; isAMMEnabled: boolean; orderHash: string };
}

/** The `meta` of a saved order as the wire has it: ids as decimal strings. */
export interface SavedWireMeta {
  id: string;
  orderbookId: string;
  status: string;
  reason: string | null;
  orderHash: string;
  filledAmount: string;
  isAMMEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A saved order's meta as tests use it: its id as a number (the wire sends a string), to cancel it or read its history by. */
export interface SavedMeta {
  id: number;
  status: string;
  reason: string | null;
  orderHash: string;
  filledAmount: string;
}

export interface OrderRequestBody {
  orderbookId: number | string;
  type: 'LIMIT' | 'MARKET';
  inputToken: string;
  inputAmount: string;
  outputToken: string;
  outputAmount: string;
  deadline?: string;
  recipient?: string;
  makerOnly?: boolean | 0 | 1;
  takerOnce?: boolean | 0 | 1;
  isAMMEnabled?: boolean | 0 | 1;
}

type Signer =
  | { readonly type: 'secp256k1'; readonly account: PrivateKeyAccount }
  | { readonly type: 'ed25519'; readonly privateKey: KeyObject };

/** Strips `meta`, leaving the order exactly as signed. */
export function wireOf(order: BuiltOrder): Omit<BuiltOrder, 'meta'> {
  const { meta: _meta, ...wire } = order;
  return wire;
}

/** Where a trader sends its requests: a harness or a running server (read on every request, so a restart is followed). */
export interface TraderHost {
  readonly app: FastifyInstance;
  /** A whole service, or a gateway's (which settles nothing). */
  readonly services: ServedDeps & { readonly chain?: ChainReader | null };
}

/**
 * A wallet that trades through the real API: it logs in with the challenge flow, builds, signs on
 * its side (viem for secp256k1, node:crypto for Ed25519) and saves. Keys are generated per test.
 */
export class Trader {
  token = '';

  private constructor(
    private readonly host: TraderHost,
    readonly account: string,
    /** The EVM address its orders name as swapper (and that holds its tokens on the chain). */
    readonly swapper: string,
    private readonly signer: Signer,
  ) {}

  /** A fresh secp256k1 wallet trading as its 0x address. */
  static async secp256k1(host: TraderHost, privateKey: Hex = generatePrivateKey()): Promise<Trader> {
    const account = privateKeyToAccount(privateKey);
    const address = account.address.toLowerCase();
    const trader = new Trader(host, address, address, { type: 'secp256k1', account });
    await trader.login();
    return trader;
  }

  /** A fresh Ed25519 ledger account registered in the devnet's account registry. */
  static async ed25519(host: TraderHost): Promise<Trader> {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
    const record = await Trader.register(host, 'ED25519', raw);
    const trader = new Trader(host, record.accountId, record.evmAddress, { type: 'ed25519', privateKey });
    await trader.login();
    return trader;
  }

  /** A ledger account with a secp256k1 key registered in the devnet's registry, logged in as `0.0.X`; its swapper is the key's alias address. */
  static async ledgerSecp256k1(host: TraderHost, privateKey: Hex = generatePrivateKey()): Promise<Trader> {
    const account = privateKeyToAccount(privateKey);
    const record = await Trader.register(host, 'ECDSA_SECP256K1', Buffer.from(account.publicKey.slice(2), 'hex'));
    const trader = new Trader(host, record.accountId, record.evmAddress, { type: 'secp256k1', account });
    await trader.login();
    return trader;
  }

  /** Registers a key under the next devnet id; with settlement on, the reactor checks signatures against the chain's copy of the registry. */
  private static async register(host: TraderHost, keyType: 'ED25519' | 'ECDSA_SECP256K1', publicKey: Uint8Array) {
    const { services } = host;
    const record = await new DevnetAccountKeys(services.store.accountKeys).registerNew(keyType, publicKey, services.clock.now());
    const { chain } = services;
    if (chain) await DevnetIssuer.of(chain).publishKey(record);
    return record;
  }

  get app(): FastifyInstance {
    return this.host.app;
  }

  get services(): TraderHost['services'] {
    return this.host.services;
  }

  async request<T = Record<string, unknown>>(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<Reply<T>> {
    const response = await this.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${this.token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() as T, headers: response.headers };
  }

  async signMessage(message: string): Promise<Hex> {
    if (this.signer.type === 'secp256k1') return this.signer.account.signMessage({ message });
    return `0x${sign(null, Buffer.from(message), this.signer.privateKey).toString('hex')}`;
  }

  async login(): Promise<void> {
    const challenge = await this.app.inject({ method: 'POST', url: '/auth/challenge', payload: { accountId: this.account } });
    const { message } = challenge.json() as { message: string };
    const verify = await this.app.inject({
      method: 'POST',
      url: '/auth/verify',
      payload: { accountId: this.account, signature: await this.signMessage(message) },
    });
    if (verify.statusCode !== 200) throw new Error(`login failed: ${verify.body}`);
    this.token = (verify.json() as { token: string }).token;
  }

  /** The mode-byte signature of a built order. */
  async signOrder(order: BuiltOrder): Promise<Hex> {
    if (this.signer.type === 'secp256k1') {
      const { domain } = this.services;
      const signature = await this.signer.account.signTypedData(orderTypedData(domain, parseWireOrder(wireOf(order))));
      return `0x00${signature.slice(2)}`;
    }
    const digest = Buffer.from(order.meta.orderHash.slice(2), 'hex');
    return `0x00${sign(null, digest, this.signer.privateKey).toString('hex')}`;
  }

  async build(requests: OrderRequestBody[]): Promise<BuiltOrder[]> {
    const reply = await this.request<{ orders: BuiltOrder[] }>('POST', '/orders/build', { orderRequests: requests });
    if (reply.status !== 200) throw new Error(`build failed: ${JSON.stringify(reply.body)}`);
    return reply.body.orders;
  }

  /** Save items for built orders, signed; each carries the built order untouched, `meta` and all, as the docs' clients send it. */
  async items(orders: BuiltOrder[]) {
    return Promise.all(
      orders.map(async (order) => ({
        order,
        signature: await this.signOrder(order),
        orderbookId: order.meta.orderbookId,
        type: order.meta.type,
      })),
    );
  }

  async save(
    orders: BuiltOrder[],
    ocoLinks?: { a: number; b: number }[],
  ): Promise<Reply<{ orders: (WireOrder & { meta: SavedWireMeta })[] }>> {
    return this.request('POST', '/orders/save', { items: await this.items(orders), ...(ocoLinks ? { ocoLinks } : {}) });
  }

  /** The request of a limit order in grid units on a book: price in ticks, size in steps. */
  limitRequest(
    bookId: number,
    side: Side,
    priceTicks: number | bigint,
    steps: number,
    extra: Partial<OrderRequestBody> = {},
  ): OrderRequestBody {
    const market = this.services.registry.get(bookId);
    if (market === undefined) throw new Error(`no book ${bookId}`);
    const { grid, base, quote } = market;
    const baseAmount = grid.baseAmount(steps).toString();
    // In the signer's favour on a fine grid: a seller receives at least, a buyer pays at most, the price.
    const quoteAmount = grid.quoteAmount(BigInt(priceTicks), steps, side === BUY ? 'down' : 'up').toString();
    return side === BUY
      ? {
          orderbookId: bookId,
          type: 'LIMIT',
          inputToken: quote.evmAddress,
          inputAmount: quoteAmount,
          outputToken: base.evmAddress,
          outputAmount: baseAmount,
          ...extra,
        }
      : {
          orderbookId: bookId,
          type: 'LIMIT',
          inputToken: base.evmAddress,
          inputAmount: baseAmount,
          outputToken: quote.evmAddress,
          outputAmount: quoteAmount,
          ...extra,
        };
  }

  /** Builds, signs and saves limit orders; throws unless the save succeeds. Returns each order's meta. */
  async place(requests: OrderRequestBody[]): Promise<SavedMeta[]> {
    const reply = await this.save(await this.build(requests));
    if (reply.status !== 200) throw new Error(`save failed: ${JSON.stringify(reply.body)}`);
    return reply.body.orders.map(({ meta }) => ({ ...meta, id: Number(meta.id) }));
  }

  async limit(
    bookId: number,
    side: Side,
    priceTicks: number | bigint,
    steps: number,
    extra: Partial<OrderRequestBody> = {},
  ): Promise<SavedMeta> {
    const [meta] = await this.place([this.limitRequest(bookId, side, priceTicks, steps, extra)]);
    if (meta === undefined) throw new Error('no order saved');
    return meta;
  }
}
