/**
 * The nonce floor that cancels every order open now, on every book (the floor is the account's):
 * one above the highest open nonce, as the SDK's CLI computes it. Orders saved after the listing
 * have higher nonces and stay. With nothing open, 1: a floor that changes nothing.
 */
export function cancelAllFloor(orders: readonly { readonly nonce: string }[]): bigint {
  return orders.reduce((floor, order) => (BigInt(order.nonce) >= floor ? BigInt(order.nonce) + 1n : floor), 1n);
}
