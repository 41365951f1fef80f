import { type AccountRequestErrorType, type Client, request } from '../client.js';
import { InvalidParameterError } from '../errors.js';
import type { BuiltOrder, OrderRequest } from '../order-types.js';
import { batchParameter } from '../utils/parameters.js';

/** Most orders one build or save may carry. */
export const MAX_ORDERS_PER_REQUEST = 250;

/** The API's bounds of a LIMIT order's deadline: at least 30 s and at most 90 days from now. */
const MIN_DEADLINE_SECONDS = 30;
const MAX_DEADLINE_SECONDS = 90 * 86_400;
/** Unix seconds reach this in the year 5138; a deadline above it is milliseconds. */
const MILLISECONDS_ABOVE = 100_000_000_000;

/**
 * Refuses a deadline the server would refuse or move, saying which rule it breaks: a client that
 * asked for one deadline must not sign another without knowing.
 */
function checkDeadline(request: OrderRequest, index: number, now: number): void {
  if (request.deadline === undefined) return;
  const parameter = `orders[${index}].deadline`;
  const text = String(request.deadline);
  if (!/^[0-9]{1,20}$/.test(text)) throw new InvalidParameterError(parameter, `${parameter} must be unix seconds`);
  const deadline = Number(text);
  if (deadline >= MILLISECONDS_ABOVE) {
    throw new InvalidParameterError(parameter, `${parameter} ${text} looks like milliseconds: give unix seconds`);
  }
  if (deadline <= now) throw new InvalidParameterError(parameter, `${parameter} ${text} has passed`);
  if (deadline < now + MIN_DEADLINE_SECONDS) {
    throw new InvalidParameterError(parameter, `${parameter} ${text} is too soon: at least 30 seconds from now`);
  }
  if (deadline > now + MAX_DEADLINE_SECONDS) {
    throw new InvalidParameterError(parameter, `${parameter} ${text} is more than 90 days from now`);
  }
}

export interface BuildOrdersParameters {
  /** 1 to 250 requests; amounts are raw integer strings. */
  readonly orders: readonly OrderRequest[];
}

export type BuildOrdersReturnType = BuiltOrder[];

/**
 * A deadline in the past, under 30 s or over 90 days away, or in milliseconds is an
 * InvalidParameterError naming the order, before anything is sent. A request the book refuses is an
 * ApiError 400 whose `index` names it (`ORDER_OFF_GRID`, `ORDER_TOO_SMALL`...).
 */
export type BuildOrdersErrorType = InvalidParameterError | AccountRequestErrorType;

/**
 * Has the server build orders to sign (`POST /orders/build`): it assigns nonces, clamps deadlines
 * and sets the account's fee caps. Nothing is stored. Sign with {@link signOrders}, or use
 * {@link placeOrders} for build, sign and save in one call.
 */
export async function buildOrders(client: Client, parameters: BuildOrdersParameters): Promise<BuildOrdersReturnType> {
  const orderRequests = batchParameter(parameters.orders, 'orders', MAX_ORDERS_PER_REQUEST);
  const now = Math.floor(Date.now() / 1000);
  for (const [index, each] of orderRequests.entries()) checkDeadline(each, index, now);
  const answer = await request<{ orders: BuiltOrder[] }>(client, {
    method: 'POST',
    path: ['orders', 'build'],
    body: { orderRequests },
    access: 'account',
  });
  return answer.orders;
}
