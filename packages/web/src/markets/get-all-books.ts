import { type Client, getBooks, type OrderbookItem } from '@dex/sdk';

/** Books per request: the server's default page. */
const PAGE_SIZE = 100;
/** A bound on the pages followed, should a server's `total` never be reached. */
const MAX_PAGES = 50;

/** Every book of `GET /books`, following its pages until `total` is reached or a page comes back empty. */
export async function getAllBooks(client: Client): Promise<OrderbookItem[]> {
  const books: OrderbookItem[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const answer = await getBooks(client, { page, limit: PAGE_SIZE });
    books.push(...answer.orderbooks);
    if (answer.orderbooks.length === 0 || books.length >= answer.total) break;
  }
  return books;
}
