import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_UINT256 } from '../amount.js';
import { CoreError } from '../errors.js';
import { orderArbitrary } from '../test-support/order-arbitraries.js';
import { bytesToHex } from './hex.js';
import { parseOrderSignature, parseWireOrder, toWireOrder } from './order-codec.js';
import type { WireOrder } from './order-types.js';

const SWAPPER = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';

function wireOrder(): WireOrder {
  return {
    info: {
      reactor: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      swapper: SWAPPER,
      nonce: '1000',
      deadline: '1798761600',
      additionalValidationContract: '0x0000000000000000000000000000000000000000',
      additionalValidationData: '0xDEADbeef',
    },
    input: { token: '0x0000000000000000000000000000000000163b5a', amount: '250000000' },
    output: { token: '0x000000000000000000000000000000000006f89a', amount: '12345678', recipient: SWAPPER },
    makerOnly: true,
    takerOnce: false,
    maxTakerFeePips: 3000,
    maxMakerFeePips: 0,
  };
}

type Mutation = (order: Record<string, unknown>) => void;

function mutated(mutate: (order: WireOrder & Record<string, unknown>) => void): unknown {
  const order = structuredClone(wireOrder()) as WireOrder & Record<string, unknown>;
  mutate(order);
  return order;
}

function set(path: string, value: unknown): Mutation {
  return (order) => {
    const keys = path.split('.');
    const last = keys.pop() as string;
    let target = order as Record<string, unknown>;
    for (const key of keys) target = target[key] as Record<string, unknown>;
    if (value === undefined) delete target[last];
    else target[last] = value;
  };
}

describe('parseWireOrder', () => {
  it('parses a valid order, lower-casing addresses and data', () => {
    const order = parseWireOrder(wireOrder());
    expect(order.info.swapper).toBe(SWAPPER.toLowerCase());
    expect(order.info.nonce).toBe(1000n);
    expect(order.info.additionalValidationData).toBe('0xdeadbeef');
    expect(order.input.amount).toBe(250_000_000n);
    expect(order.output.recipient).toBe(SWAPPER.toLowerCase());
    expect(order.makerOnly).toBe(true);
  });

  it('accepts the extremes of every numeric field and empty validation data', () => {
    const order = parseWireOrder(
      mutated((wire) => {
        wire.info.nonce = MAX_UINT256.toString();
        wire.info.deadline = '0';
        wire.info.additionalValidationData = '0x';
        wire.maxTakerFeePips = 4_294_967_295;
        wire.maxMakerFeePips = 0;
      }),
    );
    expect(order.info.nonce).toBe(MAX_UINT256);
    expect(order.info.additionalValidationData).toBe('0x');
    expect(order.maxTakerFeePips).toBe(4_294_967_295);
  });

  it('ignores the meta that /orders/build returns beside the signed fields', () => {
    const built = { ...wireOrder(), meta: { orderbookId: '1', orderHash: '0xforged', isAMMEnabled: true } };
    expect(parseWireOrder(built)).toEqual(parseWireOrder(wireOrder()));
  });

  it('reads 1 and 0 flags as the booleans they stand for', () => {
    const order = parseWireOrder(mutated((wire) => Object.assign(wire, { makerOnly: 0, takerOnce: 1 })));
    expect(order.makerOnly).toBe(false);
    expect(order.takerOnce).toBe(true);
  });

  it('accepts 1024 bytes of validation data', () => {
    const data = `0x${'ab'.repeat(1024)}`;
    expect(parseWireOrder(mutated(set('info.additionalValidationData', data))).info.additionalValidationData).toBe(data);
  });

  it.each<[string, unknown, RegExp]>([
    ['a non-object order', 'order', /^order must be an object/],
    ['an array as the order', [], /^order must be an object/],
    ['null info', mutated(set('info', null)), /^order\.info must be an object/],
    ['an object with a prototype', mutated(set('input', new Date(0))), /^order\.input must be a plain object/],
    ['an unknown top-level field', mutated(set('extra', 1)), /^order has an unknown field "extra"/],
    ['an unknown nested field', mutated(set('output.memo', 'x')), /^order\.output has an unknown field "memo"/],
    ['a missing nonce', mutated(set('info.nonce', undefined)), /^order\.info\.nonce is required/],
    ['a missing makerOnly', mutated(set('makerOnly', undefined)), /^order\.makerOnly is required/],
    ['a short reactor', mutated(set('info.reactor', '0x1234')), /^order\.info\.reactor must be/],
    ['an address without 0x', mutated(set('info.swapper', SWAPPER.slice(2))), /^order\.info\.swapper must be/],
    ['a non-hex address', mutated(set('input.token', `0x${'g'.repeat(40)}`)), /^order\.input\.token must be/],
    ['an address with 0X', mutated(set('output.token', `0X${'1'.repeat(40)}`)), /^order\.output\.token must be/],
    ['a 21-byte recipient', mutated(set('output.recipient', `${SWAPPER}00`)), /^order\.output\.recipient must be/],
    ['a numeric address', mutated(set('info.additionalValidationContract', 0)), /^order\.info\.additionalValidationContract/],
    ['a JSON-number nonce', mutated(set('info.nonce', 1000)), /^order\.info\.nonce must be a non-negative integer as a string/],
    ['a bigint nonce', mutated(set('info.nonce', 1000n)), /^order\.info\.nonce must be a non-negative integer as a string/],
    ['a leading-zero deadline', mutated(set('info.deadline', '01')), /^order\.info\.deadline must be/],
    ['a negative amount', mutated(set('input.amount', '-1')), /^order\.input\.amount must be/],
    ['a hex amount', mutated(set('output.amount', '0x10')), /^order\.output\.amount must be/],
    ['an exponent amount', mutated(set('output.amount', '1e3')), /^order\.output\.amount must be/],
    ['an amount above uint256', mutated(set('input.amount', (MAX_UINT256 + 1n).toString())), /^order\.input\.amount exceeds/],
    ['odd-length data', mutated(set('info.additionalValidationData', '0xabc')), /^order\.info\.additionalValidationData/],
    ['data without 0x', mutated(set('info.additionalValidationData', 'abcd')), /^order\.info\.additionalValidationData/],
    ['non-hex data', mutated(set('info.additionalValidationData', '0xzz')), /^order\.info\.additionalValidationData/],
    ['1025 bytes of data', mutated(set('info.additionalValidationData', `0x${'00'.repeat(1025)}`)), /at most 1024 bytes/],
    ['a string boolean', mutated(set('makerOnly', 'true')), /^order\.makerOnly must be true or false/],
    ['a boolean of 2', mutated(set('takerOnce', 2)), /^order\.takerOnce must be true or false/],
    ['a meta field inside info', mutated(set('info.meta', {})), /^order\.info has an unknown field "meta"/],
    ['negative pips', mutated(set('maxTakerFeePips', -1)), /^order\.maxTakerFeePips must be an integer from 0 to 4294967295/],
    ['fractional pips', mutated(set('maxTakerFeePips', 1.5)), /^order\.maxTakerFeePips/],
    ['pips above uint32', mutated(set('maxMakerFeePips', 4_294_967_296)), /^order\.maxMakerFeePips/],
    ['string pips', mutated(set('maxMakerFeePips', '3000')), /^order\.maxMakerFeePips/],
    ['NaN pips', mutated(set('maxMakerFeePips', Number.NaN)), /^order\.maxMakerFeePips/],
  ])('rejects %s naming the field', (_name, value, message) => {
    let thrown: unknown;
    try {
      parseWireOrder(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CoreError);
    expect((thrown as CoreError).code).toBe('INVALID_ORDER');
    expect((thrown as CoreError).message).toMatch(message);
  });

  it('round-trips random orders through the wire form', () => {
    const wire: fc.Arbitrary<WireOrder> = orderArbitrary(64).map(toWireOrder);
    fc.assert(
      fc.property(wire, (order) => {
        expect(toWireOrder(parseWireOrder(order))).toEqual(order);
        expect(toWireOrder(parseWireOrder(JSON.parse(JSON.stringify(order))))).toEqual(order);
      }),
    );
  });
});

describe('parseOrderSignature', () => {
  const secp = `0x00${'11'.repeat(64)}1b`;
  const ed = `0x00${'22'.repeat(64)}`;

  it('accepts mode 0x00 with a 65-byte secp256k1 signature', () => {
    const parsed = parseOrderSignature(secp);
    expect(parsed.mode).toBe(0);
    expect(bytesToHex(parsed.signature)).toBe(`0x${secp.slice(4)}`);
  });

  it('accepts mode 0x00 with a 64-byte Ed25519 signature', () => {
    expect(parseOrderSignature(ed).signature).toHaveLength(64);
  });

  it.each<[string, unknown, RegExp]>([
    ['mode 0x01', `0x01${'11'.repeat(65)}`, /mode 0x01 \(personal-sign\) is not supported/],
    ['an unknown mode', `0x02${'11'.repeat(65)}`, /mode 0x02 is unknown/],
    ['a missing mode byte', `0x${'11'.repeat(64)}1b`, /mode 0x11 is unknown/],
    ['63 signature bytes', `0x00${'11'.repeat(63)}`, /got 63 bytes/],
    ['66 signature bytes', `0x00${'11'.repeat(66)}`, /got 66 bytes/],
    ['the mode byte alone', '0x00', /got 0 bytes/],
    ['empty hex', '0x', /must be 0x-prefixed hex/],
    ['odd-length hex', `${ed}1`, /must be 0x-prefixed hex/],
    ['non-hex characters', `0x00${'zz'.repeat(64)}`, /must be 0x-prefixed hex/],
    ['no 0x prefix', ed.slice(2), /must be 0x-prefixed hex/],
    ['a number', 0, /must be 0x-prefixed hex/],
  ])('rejects %s', (_name, value, message) => {
    expect(() => parseOrderSignature(value)).toThrow(message);
    expect(() => parseOrderSignature(value)).toThrow(expect.objectContaining({ code: 'INVALID_SIGNATURE' }));
  });
});
