/**
 * Lists read over more than one page (docs/guides/verify.md, "What it
 * checks" 2): a list with `page` and `pageSize` read one item per page, from
 * the first page to one past the last: each page holds one item, every page
 * states the same total, no item comes twice, the pages together hold the
 * total, and the page past the last is empty. The reads are one check
 * (`pages answer`), whatever their number.
 */
import type { SpecOperation } from './document.ts';
import { dataOf, type Run } from './run.ts';

/** Pages read at most (one item each). */
const MAX_PAGES = 6;

/** True when `op` is a paginated list: a GET without path parameters taking page and pageSize. */
export const isPaginated = (op: SpecOperation) =>
  op.method === 'get' && !op.pathParams.length && op.queryParams.includes('page') && op.queryParams.includes('pageSize');

/** Reads `op` one item per page and checks the pages agree. */
export async function pagination(run: Run, op: SpecOperation): Promise<void> {
  const problems: Awaited<ReturnType<Run['probe']>>['problems'] = [];
  let ms = 0;
  const page = async (n: number) => {
    const p = await run.probe(op, `${op.path}?page=${n}&pageSize=1`);
    problems.push(...p.problems);
    ms += p.ms;
    const data = dataOf(p.answer) as { items?: unknown[]; total?: unknown } | undefined;
    return { answer: p.answer, items: Array.isArray(data?.items) ? data.items : undefined, total: data?.total };
  };
  const first = await page(1);
  const total = first.total;
  if (typeof total !== 'number' || !first.items || total < 2) {
    run.record(op, 'pages answer', run.problemVerdict(problems), ms);
    return void run.record(op, 'pagination', { skip: `fewer than two items to page through (total ${String(total)})` });
  }
  const pages = Math.min(total, MAX_PAGES);
  const seen: string[] = [];
  let sizes: ReturnType<Run['fail']> = null;
  let totals: ReturnType<Run['fail']> = null;
  for (let n = 1; n <= pages; n++) {
    const p = n === 1 ? first : await page(n);
    if (p.items?.length !== 1 && !sizes)
      sizes = run.fail(p.answer, 'page size', `page ${n} of pageSize 1 holds ${p.items?.length ?? 'no'} items (total ${total})`);
    if (p.total !== total && !totals) totals = run.fail(p.answer, 'page totals agree', `page ${n} says total ${String(p.total)}, page 1 said ${total}`);
    for (const item of p.items ?? []) seen.push(JSON.stringify(itemId(item)));
  }
  const past = total <= MAX_PAGES ? await page(total + 1) : undefined;
  run.record(op, 'pages answer', run.problemVerdict(problems), ms);
  run.record(op, 'pagination: one item per page', sizes);
  run.record(op, 'pagination: totals agree', totals);
  const dup = seen.find((id, i) => seen.indexOf(id) !== i);
  run.record(
    op,
    'pagination: no item twice',
    dup ? run.fail(first.answer, 'no duplicate across pages', `the item ${dup} is on two pages of pageSize 1`) : null,
  );
  if (past)
    run.record(
      op,
      'pagination: pages hold the total',
      past.items?.length !== 0
        ? run.fail(past.answer, 'page past the last empty', `page ${total + 1} of pageSize 1 (total ${total}) holds ${past.items?.length ?? 'no'} items`)
        : null,
    );
  else run.record(op, 'pagination: pages hold the total', { skip: `more than ${MAX_PAGES} items: the first ${MAX_PAGES} pages read` });
}

/** What names a list item: its id or taskId, else the item itself. */
function itemId(item: unknown): unknown {
  const o = item as Record<string, unknown> | null;
  return o?.taskId ?? o?.id ?? o?.speakerId ?? o;
}
