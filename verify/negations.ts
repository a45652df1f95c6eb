/**
 * Bodies breaking each rule fragment a body schema carries under `allOf`
 * (docs/guides/verify.md, "What it checks" 2; docs/rules.md lists them): the
 * fragments with an `x-rule`, whatever they say (`if`/`then` on a model, a
 * `contains` with `maxContains`, a `not`, a `pattern`, one of some fields)
 * and however deep (through `properties`, array `items`, `allOf`, `anyOf`,
 * `oneOf`, `not`, `if`/`then`/`else`). Such a rule cannot always be broken by
 * editing one keyword, so the body is found by search: small edits the
 * fragment itself suggests (verify/edits.ts: a field added or left out, a
 * value set inside or outside a bound, an item added, doubled or taken out),
 * alone or two or three together, from a valid body, each judged by ajv over
 * the document itself; a body that breaks the fragment and, besides, other
 * fragments is repaired with the edits those fragments suggest. The first
 * body that breaks the fragment and nothing else of the schema is kept, one
 * per fragment; the fragment's `x-error-code` is the code expected.
 */
import type { ErrorObject } from 'ajv';
import { resolve, type ApiDocument, type JsonSchema } from './document.ts';
import { editsOf, type Body, type Edit } from './edits.ts';

/** A body breaking one rule fragment: `<keyword> <x-rule>`, the fragment's id and index, and the code it declares (undefined: none). */
export interface NegatedBody {
  rule: string;
  ruleId: string;
  fragment: number;
  body: Body;
  code?: number;
}

const clone = <T>(v: T): T => structuredClone(v);

/** Every combination of at most `k` of `items`, smallest first. */
function* combinations<T>(items: T[], k: number): Generator<T[]> {
  const rec = function* (start: number, left: number, acc: T[]): Generator<T[]> {
    if (left === 0) {
      yield acc;
      return;
    }
    for (let i = start; i < items.length; i++) yield* rec(i + 1, left - 1, [...acc, items[i]]);
  };
  for (let n = 1; n <= Math.min(k, items.length); n++) yield* rec(0, n, []);
}

/** The keyword a body breaking a fragment is named by: contains, not, or the innermost keyword ajv names. */
function keywordOf(errors: ErrorObject[]): string {
  const kws = errors.map((e) => e.keyword);
  if (kws.some((k) => k === 'contains' || k === 'maxContains' || k === 'minContains')) return 'contains';
  if (kws.includes('not')) return 'not';
  return kws.find((k) => !['if', 'anyOf', 'oneOf', 'allOf', 'then', 'else'].includes(k)) ?? kws[0];
}

/** Validations one fragment's search may spend (each body judged once; a repair is one more). */
const TRIES = 2000;

/** Results by schema and base bodies: a document is searched once per process. */
const cache = new Map<string, NegatedBody[]>();

/**
 * Bodies breaking each rule fragment (those with an `x-rule`) under the `allOf` of the body schema at `pointer` (in
 * `doc`), from the first of `bases` (valid bodies) the search succeeds from, judged by `validate` (ajv over the
 * document): each breaks its fragment alone. Fragments no body was found for are left out (`missedFragments`).
 */
export function brokenFragments(doc: ApiDocument, validate: (pointer: string, value: unknown) => ErrorObject[], pointer: string, bases: Body[]): NegatedBody[] {
  const schema = resolve(doc, { $ref: `#${pointer}` });
  const key = `${pointer}\n${JSON.stringify(bases)}\n${JSON.stringify(schema)}`;
  const known = cache.get(key);
  if (known) return known.map(clone);
  const fragments = ((schema?.allOf as JsonSchema[] | undefined) ?? []).map((f) => resolve(doc, f));

  // ajv names the schema path from the document (api#/components/...) or from the compiled schema's root (#/allOf/...)
  const fragmentOf = (e: ErrorObject): number => {
    const m = /^#\/allOf\/(\d+)(?:\/|$)/.exec(e.schemaPath.replace(/^api#/, '#').replace(`#${pointer}`, '#'));
    return m ? Number(m[1]) : -1;
  };
  const editsBy = fragments.map((f) => (f ? editsOf(doc, schema!, f) : []));
  const judge = (b: Body) => validate(pointer, b);
  // the bases valid as they are, or once the edits of the fragments they break repair them
  const valid = bases
    .filter((b) => b && typeof b === 'object')
    .map((b) => new Search(-1, editsBy, judge, fragmentOf).repair(clone(b), judge(b)))
    .filter((r) => !r.errors.length)
    .map((r) => r.body);
  const out: NegatedBody[] = [];
  fragments.forEach((fragment, i) => {
    if (!fragment || typeof fragment['x-rule'] !== 'string') return;
    const search = new Search(i, editsBy, judge, fragmentOf);
    const found = search.find(valid);
    if (!found) return;
    found.errors = search.inside(found.errors);
    const code = typeof fragment['x-error-code'] === 'number' ? fragment['x-error-code'] : undefined;
    out.push({
      rule: `${keywordOf(found.errors)} ${fragment['x-rule']}`,
      ruleId: fragment['x-rule'],
      fragment: i,
      body: found.body,
      ...(code !== undefined ? { code } : {}),
    });
  });
  cache.set(key, out);
  return out.map(clone);
}

/** Judges bodies against fragment `i` (-1: none, to make a valid body) and repairs them with the edits other fragments suggest. */
class Search {
  tries = 0;
  constructor(
    private readonly i: number,
    private readonly editsBy: Edit[][],
    private readonly judge: (b: Body) => ErrorObject[],
    private readonly fragmentOf: (e: ErrorObject) => number,
  ) {}

  /** Errors of the fragment searched for. */
  inside(errors: ErrorObject[]): ErrorObject[] {
    return errors.filter((e) => this.fragmentOf(e) === this.i);
  }

  /** Errors elsewhere, less those saying what an error inside says (a field's own schema stating the fragment's bound). */
  outside(errors: ErrorObject[]): ErrorObject[] {
    const same = (e: ErrorObject) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`;
    const mine = new Set(this.inside(errors).map(same));
    return errors.filter((e) => this.fragmentOf(e) !== this.i && !mine.has(same(e)));
  }

  spent(): boolean {
    return ++this.tries > TRIES;
  }

  /**
   * `body` with other fragments' errors taken away by their own edits (five rounds at most): each round one edit that
   * leaves fewer errors in one of them, breaks none it mended before and no more fragments than were broken, the
   * fragment searched for still broken.
   */
  repair(body: Body, errors: ErrorObject[]): { body: Body; errors: ErrorObject[] } {
    let cur = { body, errors };
    const mended = new Set<number>();
    const keeps = (errs: ErrorObject[]) => this.i === -1 || this.inside(errs).length > 0;
    for (let round = 0; round < 5 && this.outside(cur.errors).length; round++) {
      const others = new Set(this.outside(cur.errors).map(this.fragmentOf));
      if (others.has(-1)) break;
      let better: typeof cur | undefined;
      for (const j of others) {
        for (const e of this.editsBy[j]) {
          if (this.spent()) return cur;
          const b = clone(cur.body);
          e.apply(b);
          const errs = this.judge(b);
          if (!keeps(errs)) continue;
          const now = new Set(this.outside(errs).map(this.fragmentOf));
          const left = (x: ErrorObject[]) => this.outside(x).filter((y) => this.fragmentOf(y) === j).length;
          if (now.has(-1) || now.size > others.size || [...mended].some((m) => now.has(m)) || left(errs) >= left(cur.errors)) continue;
          better = { body: b, errors: errs };
          if (!now.has(j)) mended.add(j);
          break;
        }
        if (better) break;
      }
      if (!better) break;
      cur = better;
    }
    return cur;
  }

  /** A body breaking fragment `i` alone, searched from each base in turn; undefined when none is found within the tries. */
  find(bases: Body[]): { body: Body; errors: ErrorObject[] } | undefined {
    for (const base of bases) {
      for (const combo of combinations(this.editsBy[this.i], 3)) {
        if (this.spent()) return undefined;
        const body = clone(base);
        combo.forEach((e) => e.apply(body));
        const errors = this.judge(body);
        if (!this.inside(errors).length) continue;
        const fixed = this.repair(body, errors);
        if (!this.outside(fixed.errors).length) return fixed;
      }
    }
    // then a change of the fragment's with one or two of the fragments it breaks besides (an item's other fields)
    for (const base of bases) {
      for (const combo of combinations(this.editsBy[this.i], 2)) {
        if (this.spent()) return undefined;
        const body = clone(base);
        combo.forEach((e) => e.apply(body));
        const errors = this.judge(body);
        const others = new Set(this.outside(errors).map(this.fragmentOf));
        if (!this.inside(errors).length || !others.size || others.has(-1)) continue;
        const pool = [...others].flatMap((j) => this.editsBy[j]);
        for (const extra of combinations(pool, 2)) {
          if (this.spent()) return undefined;
          const b = clone(body);
          extra.forEach((e) => e.apply(b));
          const errs = this.judge(b);
          if (!this.inside(errs).length) continue;
          const fixed = this.repair(b, errs);
          if (!this.outside(fixed.errors).length) return fixed;
        }
      }
    }
    return undefined;
  }
}

/** The `x-rule` fragments of the schema at `pointer` the search found no body for (their ids), for the report of what is not derived. */
export function missedFragments(doc: ApiDocument, pointer: string, found: NegatedBody[]): string[] {
  const schema = resolve(doc, { $ref: `#${pointer}` });
  const got = new Set(found.map((f) => f.fragment));
  return ((schema?.allOf as JsonSchema[] | undefined) ?? [])
    .map((f, i) => ({ f: resolve(doc, f), i }))
    .filter(({ f, i }) => typeof f?.['x-rule'] === 'string' && !got.has(i))
    .map(({ f }) => f!['x-rule'] as string);
}
