import { type PartialFillLimitOrder, parseWireOrder } from '@dex/core';

/**
 * The one decoder of a stored signed order (`OrderRecord.signedOrder`, the wire form as verified):
 * the desk's live orders and the settlement batch both read it through here, so the stored text
 * is parsed in one way only.
 */
export function decodeSignedOrder(text: string): PartialFillLimitOrder {
  return parseWireOrder(JSON.parse(text));
}
