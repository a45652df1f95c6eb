/**
 * Pages as an iterator: every item of a list operation (`{items, page,
 * pageSize, total}`), page after page from the query's `page` (default 1) until
 * `page * pageSize` reaches `total` or a page comes back empty.
 */

/** One page as a list operation answers it. */
interface Page {
  items: unknown[];
  page: number;
  pageSize: number;
  total: number;
}

/** The read of one page, as the client makes it (throws ApiError on an error answer). */
export type PageRead = (query: Record<string, unknown>) => Promise<Page>;

/** The items of every page from `query.page`, read one page at a time as the iteration goes. */
export async function* iteratePages<Item>(read: PageRead, query: Record<string, unknown> = {}): AsyncGenerator<Item, void, undefined> {
  let page = typeof query.page === 'number' ? query.page : 1;
  for (;;) {
    const answer = await read({ ...query, page });
    for (const item of answer.items) yield item as Item;
    if (answer.items.length === 0 || answer.page * answer.pageSize >= answer.total) return;
    page = answer.page + 1;
  }
}
