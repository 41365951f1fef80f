import { createClient, type OrderbookItem } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { getAllBooks } from './get-all-books.js';

const book = (id: number) =>
  ({ id, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }) as OrderbookItem;

/** A client whose service holds `total` books and answers pages of `pageSize`. */
function clientWithBooks(total: number, pageSize: number) {
  const pagesAsked: number[] = [];
  const client = createClient({
    baseUrl: 'http://service.test',
    fetch: async (url) => {
      const page = Number(new URL(url).searchParams.get('page'));
      pagesAsked.push(page);
      const ids = Array.from({ length: total }, (_, index) => index + 1).slice((page - 1) * pageSize, page * pageSize);
      return new Response(JSON.stringify({ orderbooks: ids.map(book), total, page, limit: pageSize }), {
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return { client, pagesAsked };
}

describe('getAllBooks', () => {
  it('follows the pages until the total is reached', async () => {
    const { client, pagesAsked } = clientWithBooks(5, 2);
    expect((await getAllBooks(client)).map((item) => item.id)).toEqual([1, 2, 3, 4, 5]);
    expect(pagesAsked).toEqual([1, 2, 3]);
  });

  it('asks once when one page holds everything, or nothing', async () => {
    const { client, pagesAsked } = clientWithBooks(0, 100);
    expect(await getAllBooks(client)).toEqual([]);
    expect(pagesAsked).toEqual([1]);
  });
});
