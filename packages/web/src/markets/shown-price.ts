/** A price of `GET /books` as the page shows it: "0" (the API's word for no trade yet) as a dash. */
export function shownPrice(price: string): string {
  return /^0(\.0*)?$/.test(price) ? '—' : price;
}
