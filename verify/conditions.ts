/**
 * Bodies breaking the conditional rules a body schema carries under `allOf`
 * (docs/rules.md lists them per operation): `if`/`then` fragments (when a
 * field has a value, another is required, limited to some values, or bounded
 * more tightly), `oneOf`/`anyOf` of required fields (exactly or at least one
 * of them), and `dependentRequired`. Each body sets the condition from a valid
 * body and breaks only the conditional rule where it can: a value the field's
 * own schema allows but the fragment does not, so a server enforcing the
 * field's own rules alone is told apart from one enforcing the condition.
 */
import { resolve, type ApiDocument, type JsonSchema } from './document.ts';

type Body = Record<string, unknown>;

/** The fields and values an `if` requires (const or the first enum value of each), or undefined when it says more than that. */
function condition(doc: ApiDocument, node: JsonSchema | undefined): Body | undefined {
  const s = resolve(doc, node);
  if (!s) return undefined;
  const known = new Set(['properties', 'required', 'type']);
  if (Object.keys(s).some((k) => !known.has(k))) return undefined;
  const out: Body = {};
  for (const [name, raw] of Object.entries(s.properties ?? {})) {
    const p = resolve(doc, raw);
    if (p?.const !== undefined) out[name] = p.const;
    else if (p?.enum?.length) out[name] = p.enum[0];
    else return undefined;
  }
  return Object.keys(out).length ? out : undefined;
}

const show = (c: Body) =>
  Object.entries(c)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',');

/** A value of `own` (the field's own schema) that `then` (the fragment's) refuses, or undefined when there is none. */
function outside(doc: ApiDocument, own: JsonSchema | undefined, then: JsonSchema | undefined): { kw: string; value: unknown } | undefined {
  const o = resolve(doc, own);
  const t = resolve(doc, then);
  if (!t) return undefined;
  if (t.enum) {
    const v = (o?.enum ?? []).find((x) => !t.enum!.includes(x));
    return v === undefined ? undefined : { kw: 'enum', value: v };
  }
  if (t.const !== undefined) {
    if (typeof t.const === 'boolean') return { kw: 'const', value: !t.const };
    const v = (o?.enum ?? []).find((x) => x !== t.const);
    return v === undefined ? undefined : { kw: 'const', value: v };
  }
  if (t.maximum !== undefined && (o?.maximum === undefined || o.maximum > t.maximum)) return { kw: 'maximum', value: t.maximum + 1 };
  if (t.minimum !== undefined && (o?.minimum === undefined || o.minimum < t.minimum)) return { kw: 'minimum', value: t.minimum - 1 };
  if (t.maxLength !== undefined && t.maxLength < 100_000 && (o?.maxLength === undefined || o.maxLength > t.maxLength))
    return { kw: 'maxLength', value: 'x'.repeat(t.maxLength + 1) };
  return undefined;
}

/** Bodies breaking each conditional rule of `schema`, from `base` (a valid body). */
export function brokenConditions(doc: ApiDocument, schema: JsonSchema, base: Body): { rule: string; body: Body }[] {
  const s = resolve(doc, schema);
  if (!s?.properties) return [];
  const own = s.properties;
  const out = new Map<string, Body>();
  const add = (rule: string, body: Body) => void (out.has(rule) || out.set(rule, body));
  for (const raw of (s.allOf as JsonSchema[] | undefined) ?? []) {
    const frag = resolve(doc, raw);
    if (!frag) continue;
    if (frag.if && frag.then) {
      const cond = condition(doc, frag.if as JsonSchema);
      const then = resolve(doc, frag.then as JsonSchema);
      if (!cond || !then) continue;
      const when = { ...base, ...cond };
      for (const r of then.required ?? []) {
        if (r in cond) continue;
        const { [r]: _gone, ...rest } = when;
        add(`if ${show(cond)} then required ${r}`, rest);
      }
      for (const [name, p] of Object.entries(then.properties ?? {})) {
        if (name in cond) continue;
        const nested = resolve(doc, p);
        if (nested?.required?.length && typeof when[name] !== 'object') {
          // a nested object required to carry fields: sent empty
          add(`if ${show(cond)} then required ${name}.${nested.required[0]}`, { ...when, [name]: {} });
          continue;
        }
        const bad = outside(doc, own[name], p);
        if (bad) add(`if ${show(cond)} then ${bad.kw} ${name}`, { ...when, [name]: bad.value });
      }
    }
    const alternatives = (frag.oneOf ?? frag.anyOf)?.map((a) => resolve(doc, a)?.required);
    if (alternatives?.length && alternatives.every((r) => r?.length === 1)) {
      const names = alternatives.map((r) => r![0]);
      const rest = Object.fromEntries(Object.entries(base).filter(([k]) => !names.includes(k)));
      add(`${frag.oneOf ? 'exactly' : 'at least'} one of ${names.join(', ')}: none`, rest);
    }
  }
  for (const [field, needs] of Object.entries((s.dependentRequired as Record<string, string[]> | undefined) ?? {})) {
    if (!(field in base)) continue;
    for (const n of needs.filter((x) => x in base)) {
      const { [n]: _gone, ...rest } = base;
      add(`with ${field}, required ${n}`, rest);
    }
  }
  return [...out].map(([rule, body]) => ({ rule, body }));
}
