import { type Eip712Domain, parseWireOrder } from '@dex/core';
import type { AccountRequestErrorType, Client } from '../client.js';
import { InvalidParameterError, NotAuthenticatedError, type OrderMismatchError } from '../errors.js';
import type { BuiltOrder, OnboardingStatus, OrderRequest, SignedOrder } from '../order-types.js';
import { checkBuiltOrder } from '../signing/check-built-order.js';
import { asParameter } from '../utils/parameters.js';
import { getOnboardingStatus } from './get-onboarding-status.js';
import { getSignatureDomain } from './get-signature-domain.js';

/** Fee caps above 1 % are refused unless the caller raises this bound. */
export const DEFAULT_MAX_FEE_PIPS = 10_000;

export interface SignOrdersParameters {
  readonly orders: readonly BuiltOrder[];
  /**
   * The requests the orders were built from, in the same order: each order must match its request
   * exactly. Without them only the account-level checks run.
   */
  readonly requests?: readonly OrderRequest[] | undefined;
  /** The signing domain; fetched from `GET /signature/domain` (once per client) when absent. */
  readonly domain?: Eip712Domain | undefined;
  /** The highest fee cap to sign, in pips (1 pip = 0.0001 %); default 10,000 (1 %). */
  readonly maxFeePips?: number | undefined;
}

export type SignOrdersReturnType = SignedOrder[];

/** OrderMismatchError: the server built something else than asked; nothing was signed. */
export type SignOrdersErrorType = OrderMismatchError | InvalidParameterError | NotAuthenticatedError | AccountRequestErrorType;

const domains = new WeakMap<Client, Promise<Eip712Domain>>();

/** The client's signing domain, asked for once (the onboarding reads its reactor too). */
export function domainOf(client: Client): Promise<Eip712Domain> {
  let domain = domains.get(client);
  if (domain === undefined) {
    domain = getSignatureDomain(client).then((value) => value as Eip712Domain);
    // A failed fetch is not remembered.
    domain.catch(() => domains.delete(client));
    domains.set(client, domain);
  }
  return domain;
}

/**
 * The requests with the native coin (the zero address, as `GET /books` lists HBAR) replaced by the
 * token its side settles in, where the build signed another token for it: that token must be the
 * one the book's onboarding status names for the side (the wrapped native coin), never any other.
 */
async function settlementRequests(
  client: Client,
  orders: readonly BuiltOrder[],
  requests: readonly OrderRequest[] | undefined,
): Promise<readonly (OrderRequest | undefined)[] | undefined> {
  if (requests === undefined) return undefined;
  const statuses = new Map<string, Promise<OnboardingStatus>>();
  const statusOf = (orderbookId: string) => {
    let status = statuses.get(orderbookId);
    if (status === undefined) {
      status = getOnboardingStatus(client, { orderbookId });
      statuses.set(orderbookId, status);
    }
    return status;
  };
  return Promise.all(
    requests.map(async (request, index) => {
      const built = orders[index];
      if (built === undefined) return request;
      const nativeIn = isNative(request.inputToken) && !isNative(built.input.token);
      const nativeOut = isNative(request.outputToken) && !isNative(built.output.token);
      if (!nativeIn && !nativeOut) return request;
      const status = await statusOf(String(request.orderbookId));
      const other = (nativeIn ? request.outputToken : request.inputToken).toLowerCase();
      const wrapped = [status.baseToken, status.quoteToken].find((token) => token !== undefined && token.toLowerCase() !== other);
      if (wrapped === undefined) return request;
      return nativeIn ? { ...request, inputToken: wrapped } : { ...request, outputToken: wrapped };
    }),
  );
}

const isNative = (token: string): boolean => /^0x0{40}$/i.test(token);

/**
 * Signs built orders with the client's signer, on this side: each order is checked against its
 * request, this account and this network first (see {@link checkBuiltOrder}), and the EIP-712
 * digest is computed here. Returns the items of `POST /orders/save`. An order the build opted into
 * the book's pool (`meta.isAMMEnabled: true`) keeps `meta: { isAMMEnabled: true }`, which is what
 * the save reads the opt-in from; every other order goes without its meta.
 */
export async function signOrders(client: Client, parameters: SignOrdersParameters): Promise<SignOrdersReturnType> {
  const { signer } = client.session;
  if (signer === undefined) throw new NotAuthenticatedError();
  const { orders, requests } = parameters;
  if (requests !== undefined && requests.length !== orders.length) {
    throw new InvalidParameterError('requests', 'requests must have one entry per order', {
      details: `${requests.length} requests for ${orders.length} orders`,
    });
  }
  const domain = parameters.domain ?? (await domainOf(client));
  const now = Math.floor(Date.now() / 1000);
  const maxFeePips = parameters.maxFeePips ?? DEFAULT_MAX_FEE_PIPS;
  const settled = await settlementRequests(client, orders, requests);
  return Promise.all(
    orders.map(async (built, index) => {
      const { meta, ...wire } = built;
      const order = asParameter(`orders[${index}]`, () => parseWireOrder(wire));
      checkBuiltOrder(index, built, order, { signer, domain, request: settled?.[index], now, maxFeePips });
      const signature = await signer.signOrder(order, domain);
      // The pool opt-in is not signed: it travels in the order's meta, as the build returned it.
      const sent = meta.isAMMEnabled === true ? { ...wire, meta: { isAMMEnabled: true } } : wire;
      return { order: sent, signature, orderbookId: meta.orderbookId, type: meta.type };
    }),
  );
}
