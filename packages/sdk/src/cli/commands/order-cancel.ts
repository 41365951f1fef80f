import { cancelAfter, MAX_CANCEL_AFTER_SECONDS } from '../../actions/cancel-after.js';
import { cancelAllOrders } from '../../actions/cancel-all-orders.js';
import { cancelOrders, MAX_CANCELS_PER_REQUEST } from '../../actions/cancel-orders.js';
import { getOpenOrders } from '../../actions/get-open-orders.js';
import type { CancelResult, OrderListItem } from '../../order-types.js';
import { UsageError, wholeNumber } from '../arguments.js';
import type { Command } from '../command.js';

/**
 * The nonce floor that cancels every order open now: one above the highest open nonce. Not the
 * current time in microseconds: the floor never comes down, the server's nonces can run ahead of
 * any clock, and a client clock ahead of the server's would block every order built until the
 * server's clock caught up. Orders saved after the list was read have higher nonces and stay.
 * With nothing open, 1: a floor every nonce is above, so the call changes nothing.
 */
function floorAbove(orders: readonly OrderListItem[]): bigint {
  return orders.reduce((floor, order) => (BigInt(order.nonce) >= floor ? BigInt(order.nonce) + 1n : floor), 1n);
}

function describe(result: CancelResult): string {
  const lines = [
    result.accepted.length === 0
      ? 'no order cancelled'
      : `cancelling ${result.accepted.join(', ')} (off the book now; final when its history shows CANCELED)`,
    ...result.skippedDetails.map((skipped) => `not cancelled ${skipped.orderId}: ${skipped.reason}`),
  ];
  return lines.join('\n');
}

export const orderCancelCommand: Command = {
  name: 'order cancel',
  synopsis: '<id...> | --all',
  summary: 'cancel orders by id, or every open order of the account',
  help: [
    `  <id...>   up to ${MAX_CANCELS_PER_REQUEST} order ids; exit code 1 when any of them is not cancelled`,
    '            (NOT_FOUND: not an order of this account; NOT_OPEN: it has already ended)',
    '  --all     every order open now: raises the nonce floor to one above the highest open nonce',
    '            (POST /cancel/all); orders placed after the open orders were read stay',
    '  --json    the POST /cancel or /cancel/all answer',
  ].join('\n'),
  options: ['all'],
  arguments: [0, MAX_CANCELS_PER_REQUEST],
  async run(context, ids) {
    if (context.values.all === true) {
      if (ids.length > 0) throw new UsageError('Give order ids or --all, not both');
      const client = await context.accountClient('order cancel');
      const nonceFloor = floorAbove(await getOpenOrders(client));
      const result = await cancelAllOrders(client, { nonceFloor });
      context.print(result, `${describe(result)}\nnonce floor ${nonceFloor}`);
      return 0;
    }
    if (ids.length === 0) throw new UsageError('Give the ids of the orders to cancel, or --all');
    const orderIds = ids.map((id) => wholeNumber(id, 'An order id'));
    const result = await cancelOrders(await context.accountClient('order cancel'), { orderIds });
    context.print(result, describe(result));
    return result.skipped.length === 0 ? 0 : 1;
  },
};

const SECONDS = /^(0|[1-9][0-9]{0,5})$/;

export const orderCancelAfterCommand: Command = {
  name: 'order cancel-after',
  synopsis: '<seconds>',
  summary: 'the dead-man switch: cancel every open order unless this is run again within SECONDS; 0 disarms it',
  help: [
    `  <seconds>   0 to ${MAX_CANCEL_AFTER_SECONDS}; each run replaces the last switch. Run it every few seconds with a`,
    "              longer timeout (a cron job, a bot's loop): if the runs stop, the account's open orders are",
    '              cancelled (reason CANCEL_AFTER) and orders built but not saved yet can no longer be saved',
    '  --json      the POST /cancel/after answer',
  ].join('\n'),
  options: [],
  arguments: [1, 1],
  async run(context, [text = '']) {
    if (!SECONDS.test(text) || Number(text) > MAX_CANCEL_AFTER_SECONDS) {
      throw new UsageError(`SECONDS must be a whole number from 0 to ${MAX_CANCEL_AFTER_SECONDS}`);
    }
    const result = await cancelAfter(await context.accountClient('order cancel-after'), { timeoutSeconds: Number(text) });
    context.print(
      result,
      result.triggerTime === null
        ? 'dead-man switch disarmed'
        : `every open order is cancelled at ${result.triggerTime} unless the switch is armed again before`,
    );
    return 0;
  },
};
