/**
 * Requests of one target as fast-check values (the model is model.ts): valid
 * requests generated from the document's schemas, the body seeded by the
 * document's example (as is, with one or two fields replaced, or generated
 * whole), and mutated ones: a valid request plus one to three mutations of its
 * body, Content-Type and Content-Encoding, Authorization, Prefer, query, path
 * parameters, multipart structure or other headers. Shrinking drops mutations
 * and simplifies what is left, so a failure shrinks to the mutation that causes it.
 */
import fc from 'fast-check';
import { errorCatalog, errorReason } from '../../schemas/errors.ts';
import { operationIds, operations } from '../../schemas/operations.ts';
import { child, deref, nodeAt, validateAt, type FuzzTarget } from './documents.ts';
import { arraySlots, astralPlacementArb, isLimitedText, multipartTextFields, oddStringArb, valueMutationArb } from './mutations.ts';
import type { AuthChoice, CostCaps, MultipartMutation, MultipartPlan, PartPlan, RawTweak, RequestMutation, RequestSpec } from './model.ts';
import { SchemaArbitraries, poolRefArb, typesOf, type Hints } from './schema-arbitrary.ts';
import { FileValue, plain } from './values.ts';
import { AUTH_STYLES, percentEncode } from './wire.ts';

// ---------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------

/** What building request arbitraries needs. */
export interface BuildContext {
  /** How many API keys the run's pool has. */
  keyCount: number;
  caps: CostCaps;
}

const KEYISH = fc.stringMatching(/^mg_[A-Za-z0-9]{1,8}_[A-Za-z0-9]{1,8}$/);

/** The areas of the registry, as the activity feed names them (its tags, lower case). */
const AREAS = [...new Set(operationIds.map((id) => (operations[id] as { tags: string[] }).tags[0].toLowerCase()))];

/** HTTP statuses some operation of the registry declares. */
const DECLARED_STATUSES = [...new Set(Object.values(errorCatalog).map((e) => e.httpStatus))].filter((s) => s < 500);

/** Better values for plain strings and integers, by property or parameter name (an integer only gets integers). */
function hintsFor(t: FuzzTarget): Hints {
  return (name, at) => {
    const integer = typesOf(nodeAt(deref(at))).includes('integer');
    if (integer) {
      if (name === 'code') return fc.constantFrom(200, 202, ...DECLARED_STATUSES);
      if (name === 'error') return fc.constantFrom(...Object.values(errorCatalog).map((e) => e.code));
      return undefined;
    }
    switch (name) {
      case 'taskId':
      case 'sourceTaskId':
        return poolRefArb(t.doc === 'control' ? 'task:*' : `task:${t.tag}`, fc.string({ minLength: 1, maxLength: 24 }));
      case 'apiKey':
        return poolRefArb('key', KEYISH);
      case 'operationId':
        return fc.constantFrom(...operationIds);
      case 'area':
        return fc.constantFrom(...AREAS, 'nope');
      case 'error':
        return fc.oneof(
          fc.constantFrom(...Object.keys(errorCatalog)),
          fc.constantFrom(...Object.values(errorCatalog).map((e) => String(e.code))),
          fc.constantFrom(...Object.keys(errorCatalog).flatMap((n) => errorReason(n as keyof typeof errorCatalog) ?? [])),
        );
      default:
        return undefined;
    }
  };
}

/** Valid forcing directives of an API operation: declared statuses, errors, outcomes with failure reasons, short delays. */
function directiveArb(t: FuzzTarget, caps: CostCaps): fc.Arbitrary<string> | undefined {
  const op = t.op;
  if (!op) return undefined;
  const statuses = [...new Set([op.response.status, ...op.errors.map((n) => errorCatalog[n].httpStatus)])];
  const errorRefs = op.errors.flatMap((n) => [String(errorCatalog[n].code), n, ...(errorReason(n) ? [errorReason(n)!] : [])]);
  const parts: fc.Arbitrary<string>[] = [
    fc.constantFrom(...statuses).map((s) => `code=${s}`),
    fc.constantFrom(...errorRefs).map((e) => `error=${e}`),
    fc.integer({ min: 0, max: caps.delayMs }).map((d) => `delay=${d}`),
  ];
  for (const o of op.outcomes ?? []) {
    parts.push(fc.constant(`outcome=${o}`));
    if (o === 'failed' && op.failureReasons?.length)
      parts.push(fc.constantFrom(...op.failureReasons).map((r) => `outcome=failed, error=${errorCatalog[r].code}`));
  }
  return fc.oneof(...parts);
}

/** Prefer values an operation cannot honour, and junk. */
function badPreferArb(): fc.Arbitrary<string[]> {
  const one = fc.oneof(
    fc.constantFrom(
      'code=999',
      'code=20',
      'code=abc',
      'code=500',
      'error=99999',
      'error=NOT_A_NAME',
      'error=',
      'outcome=weird',
      'outcome=failed, error=10001',
      'delay=-1',
      'delay=1.5',
      'delay=60001',
      'delay=abc',
      'delay=',
      '=',
      ',,,;;;',
      'code',
      'respond-async, wait=5',
      'return=minimal',
      'code=200;code=400',
      'CODE=401',
      'error="10001"',
      'code=４０１',
      `error=${'9'.repeat(400)}`,
    ),
    fc.string({ maxLength: 40, unit: 'grapheme-ascii' }),
    oddStringArb(),
  );
  return fc.array(one, { minLength: 1, maxLength: 3 });
}

/** Authorization values that are not a usable key. */
function badAuthArb(): fc.Arbitrary<AuthChoice> {
  const values = fc.oneof(
    fc.constantFrom(
      '',
      'Bearer',
      'Bearer ',
      'Bearer  ',
      'Basic dXNlcjpwYXNz',
      'Bearer mg_bad',
      'Bearer mg_a_b_c',
      'Bearer mg__x',
      'Bearer MG_a_b',
      'Bearer mg_a_b extra',
      'Bearer mg_a-b_c',
      'Bearer mg_\u00e9_b',
      'Token mg_a_b',
      'Bearer mg_a_b,Bearer mg_c_d',
      `Bearer mg_${'a'.repeat(5000)}_b`,
      'Bearer\tmg_a_b',
      'null',
    ),
    fc.string({ maxLength: 60, unit: 'grapheme-ascii' }),
    KEYISH.map((k) => `Bearer ${k}x!`),
  );
  return fc.oneof(
    fc.constant({ kind: 'none' as const }),
    values.map((value) => ({ kind: 'header' as const, value })),
  );
}

/** Raw path segments that are not a usable parameter: malformed percent-encoding, dot segments, odd and long values. */
function badSegmentArb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '%ff',
      '%FF%FE',
      '%E0%A4%A',
      '%',
      '%%',
      '%zz',
      '%ED%A0%80',
      '%C0%AF',
      '%F8%88%80%80%80',
      '%00',
      '..',
      '.',
      '%2e%2e',
      '%2F',
      'a%2Fb',
      '~',
      '%20',
      '+',
      'null',
      'undefined',
      '__proto__',
      'constructor',
      '%C3%A9',
      '\u00e9',
    ),
    oddStringArb().map(percentEncode),
    fc.integer({ min: 200, max: 20_000 }).map((n) => 'a'.repeat(n)),
  );
}

/** Query text that no parameter expects. */
function junkQueryArb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '%zz',
      '%',
      '&&&',
      '=',
      '==&=',
      'a=%ff',
      'a=1&a=2',
      '__proto__=1',
      'constructor[prototype][x]=1',
      'page[]=1',
      'page[a]=1',
      'page=1&page=2',
      'pageSize=1&pageSize=100',
      'status=',
      '%00=%00',
      'a=%E0%A4%A',
      'a',
      '?',
      '#',
      '\u00e9=\u00ff',
    ),
    oddStringArb().map((s) => `${percentEncode(s)}=${percentEncode(s)}`),
    fc.integer({ min: 100, max: 20_000 }).map((n) => `q=${'x'.repeat(n)}`),
  );
}

/** Content-Types other than the operation's own. */
const BAD_CONTENT_TYPES: (string | null)[] = [
  null,
  '',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=nope',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/json;;;',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/xml',
  '*/*',
  'json',
  'application/octet-stream',
  'text/event-stream',
];

/** Headers that change how URLs are built or how the body is read. */
function junkHeaderArb(): fc.Arbitrary<{ name: string; value: string }> {
  return fc.oneof(
    fc.record({
      name: fc.constant('x-forwarded-host'),
      value: fc.constantFrom('evil.example', 'a b', '[::1]:99999', '%', '', 'x/y', 'example.com:0', '\u00e9'),
    }),
    fc.record({ name: fc.constant('x-forwarded-proto'), value: fc.constantFrom('javascript', 'ftp', '', 'https, http', 'HTTPS', ' ') }),
    fc.record({ name: fc.constant('host'), value: fc.constantFrom('evil.example', 'a b', '', 'localhost:99999', '[::1]', 'x'.repeat(300)) }),
    fc.record({ name: fc.constant('accept'), value: fc.constantFrom('text/html', 'application/xml', '*/*;q=0', 'garbage') }),
    fc.record({ name: fc.constant('accept-encoding'), value: fc.constantFrom('gzip', 'br', 'identity;q=0', '*') }),
    fc.record({ name: fc.constant('range'), value: fc.constantFrom('bytes=0-0', 'bytes=-1', 'bytes=99999999-', 'lines=1-2') }),
    fc.record({ name: fc.constant('if-none-match'), value: fc.constantFrom('*', '"x"', 'W/"y"') }),
    fc.record({ name: fc.constant('last-event-id'), value: fc.constantFrom('0', '-1', 'abc', '99999999999999999999') }),
    fc.record({ name: fc.constant('x-http-method-override'), value: fc.constantFrom('DELETE', 'PUT', 'GET') }),
  );
}

/** A boundary as RFC 2046 allows (the characters a browser or curl would use). */
const boundaryArb = fc.stringMatching(/^[A-Za-z0-9'()+_,\-.:=?]{1,40}$/).map((s) => `----fuzz${s}`);

/** Mutations of a multipart body (`textFields`: how many free-text fields its schema has). */
function multipartMutationArb(caps: CostCaps, textFields: number): fc.Arbitrary<MultipartMutation> {
  const list: fc.Arbitrary<MultipartMutation>[] = [
    fc.constantFrom<MultipartMutation>(
      { kind: 'wrong-boundary' },
      { kind: 'no-boundary-param' },
      { kind: 'quoted-boundary' },
      { kind: 'no-closing' },
      { kind: 'lf-only' },
      { kind: 'part-without-name' },
      { kind: 'part-without-disposition' },
      { kind: 'oversized-file' },
      { kind: 'huge-field' },
      { kind: 'files-as-text' },
      { kind: 'invalid-utf8-header' },
    ),
    fc.double({ min: 0.01, max: 0.99, noNaN: true }).map((fraction) => ({ kind: 'truncate' as const, fraction })),
    oddStringArb().map((text) => ({ kind: 'preamble' as const, text })),
    oddStringArb().map((text) => ({ kind: 'garbage-part-headers' as const, text })),
    fc.integer({ min: 1, max: 5 }).map((extra) => ({ kind: 'too-many-files' as const, extra })),
    fc.integer({ min: 90, max: 130 }).map((count) => ({ kind: 'too-many-fields' as const, count })),
    oddStringArb().map((name) => ({ kind: 'odd-filename' as const, name })),
    oddStringArb().map((name) => ({ kind: 'odd-field-name' as const, name })),
  ];
  if (caps.hugeUploads) list.push(fc.constant({ kind: 'oversized-total' as const }));
  // a text field with an astral character near its limits and the mock's cut points, as astral-at does in JSON bodies
  if (textFields > 0)
    list.push(
      fc.record({ field: fc.nat({ max: textFields - 1 }), p: astralPlacementArb() }).map((r) => ({ kind: 'astral-field' as const, field: r.field, ...r.p })),
    );
  return fc.oneof(...list);
}

/** Raw tweaks of a serialized JSON body. */
function rawTweakArb(): fc.Arbitrary<RawTweak> {
  const fraction = fc.double({ min: 0.01, max: 0.99, noNaN: true });
  return fc.oneof(
    fraction.map((f) => ({ kind: 'truncate' as const, fraction: f })),
    fc
      .record({
        fraction,
        bytes: fc.constantFrom<number[]>(
          [0xff],
          [0xc3, 0x28],
          [0xed, 0xa0, 0x80],
          [0xc0, 0xaf],
          [0xf8, 0x88, 0x80, 0x80, 0x80],
          [0xe2, 0x82],
          [0x80],
          [0xfe, 0xff],
        ),
      })
      .map((r) => ({ kind: 'invalid-utf8' as const, ...r })),
    fc.constant({ kind: 'bom' as const }),
    fc.constantFrom('x', '}', ',', '\u0000', ' // comment', '{}', 'garbage').map((junk) => ({ kind: 'trailing' as const, junk })),
    fc.constant({ kind: 'empty' as const }),
    fc.integer({ min: 1, max: 4096 }).map((extra) => ({ kind: 'oversize' as const, extra })),
    fc
      .constantFrom(
        'model=x',
        '<xml/>',
        'null',
        'true',
        '"str"',
        '123',
        '[]',
        '{}',
        'NaN',
        'undefined',
        "{'a':1}",
        '{"a":1,}',
        '\u0000',
        '{"a":',
        '[1,2',
        '{"a" 1}',
        '\ufeff{}',
      )
      .map((text) => ({ kind: 'replace' as const, text })),
    fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 48 }).map((bytes) => ({ kind: 'replace-bytes' as const, bytes })),
  );
}

/** Builds the request arbitraries of targets (one SchemaArbitraries shared, so schema arbitraries are built once). */
export class RequestArbitraries {
  private readonly cache = new Map<string, fc.Arbitrary<RequestSpec>>();
  private readonly schemas = new Map<string, SchemaArbitraries>();

  constructor(private readonly ctx: BuildContext) {}

  private schemaArbs(t: FuzzTarget): SchemaArbitraries {
    let s = this.schemas.get(t.id);
    if (!s) {
      s = new SchemaArbitraries({ hints: hintsFor(t) });
      this.schemas.set(t.id, s);
    }
    return s;
  }

  /** Requests of `t`: valid ones and mutated ones. */
  of(t: FuzzTarget): fc.Arbitrary<RequestSpec> {
    let arb = this.cache.get(t.id);
    if (!arb) {
      const valid = this.valid(t);
      const mutated = fc
        .tuple(valid, fc.array(this.mutation(t), { minLength: 1, maxLength: 3 }))
        .map(([spec, mutations]) => ({ ...spec, mutations }) satisfies RequestSpec);
      arb = fc.oneof({ weight: 3, arbitrary: valid }, { weight: 7, arbitrary: mutated });
      this.cache.set(t.id, arb);
    }
    return arb;
  }

  /** Valid requests of `t` (no mutations). */
  valid(t: FuzzTarget): fc.Arbitrary<RequestSpec> {
    const s = this.schemaArbs(t);
    const pathShape: Record<string, fc.Arbitrary<unknown>> = {};
    const queryShape: Record<string, fc.Arbitrary<unknown>> = {};
    for (const p of t.params) (p.in === 'path' ? pathShape : queryShape)[p.name] = s.valid(p.schema, p.name);
    const query = fc.record(queryShape, { requiredKeys: t.params.filter((p) => p.in === 'query' && p.required).map((p) => p.name) });
    const auth = fc.record({ kind: fc.constant('key' as const), index: fc.nat({ max: this.ctx.keyCount - 1 }), style: fc.nat({ max: AUTH_STYLES - 1 }) });
    const directive = directiveArb(t, this.ctx.caps);
    const prefer = directive ? fc.option(directive, { freq: 4, nil: undefined }) : fc.constant(undefined);
    const body = this.validBody(t);
    return fc.record({ auth, path: fc.record(pathShape), query, prefer, body }).map(
      (r) =>
        ({
          target: t.id,
          auth: r.auth,
          path: r.path,
          query: r.query,
          ...(r.prefer !== undefined ? { prefer: r.prefer } : {}),
          ...(r.body.multipart ? { multipart: r.body.multipart } : r.body.json !== undefined ? { body: r.body.json } : {}),
          mutations: [],
        }) satisfies RequestSpec,
    );
  }

  /** A valid body: the example, the example with fields replaced by generated ones, or generated from the schema. */
  private validBody(t: FuzzTarget): fc.Arbitrary<{ json?: unknown; multipart?: MultipartPlan }> {
    const b = t.body;
    if (!b) return fc.constant({});
    const s = this.schemaArbs(t);
    if (b.kind === 'multipart') return this.validMultipart(t).map((multipart) => ({ multipart }));
    const generated = s.valid(b.schema);
    const options: fc.WeightedArbitrary<unknown>[] = [{ weight: 2, arbitrary: generated }];
    if (b.example !== undefined) {
      const example = b.example;
      options.push({ weight: 1, arbitrary: fc.constant(example) });
      const node = nodeAt(deref(b.schema));
      const props = node?.properties ? Object.keys(node.properties) : [];
      if (props.length && typeof example === 'object' && example !== null) {
        // one or two fields of the example replaced by generated values: most stay acceptable to the cross-field rules
        const at = deref(b.schema);
        const field = (p: string) => s.of(child(at, 'properties', p), p, 1).map((v) => [p, v] as const);
        const one = fc.oneof(...props.map(field));
        const recombined = fc
          .oneof({ weight: 3, arbitrary: one.map((e) => [e]) }, { weight: 1, arbitrary: fc.tuple(one, one) })
          .map((entries) => ({ ...example, ...Object.fromEntries(entries) }))
          .filter((v) => validateAt(b.schema, plain(v)).length === 0);
        options.push({ weight: 3, arbitrary: recombined });
      }
    }
    const value = fc.oneof(...options);
    if (!b.required) return fc.option(value, { freq: 4, nil: undefined }).map((json) => (json === undefined ? {} : { json }));
    return value.map((json) => ({ json }));
  }

  /** A valid multipart body: file fields with files, other properties as text fields, a few extra text fields when the schema allows them. */
  private validMultipart(t: FuzzTarget): fc.Arbitrary<MultipartPlan> {
    const b = t.body!;
    const at = deref(b.schema);
    const node = nodeAt(at);
    const s = this.schemaArbs(t);
    const parts: fc.Arbitrary<PartPlan[]>[] = [];
    const fileArb = fc
      .record({
        bytes: fc.uint8Array({ maxLength: 256 }),
        filename: fc.oneof(fc.constantFrom('a.png', 'clip.mp4', 'voice.wav', ''), fc.string({ maxLength: 20, unit: 'grapheme' })),
        type: fc.option(fc.constantFrom('image/png', 'video/mp4', 'audio/wav', 'application/octet-stream', 'text/plain'), { nil: undefined }),
      })
      .map((f) => new FileValue(f.bytes, f.bytes.length, f.filename, f.type));
    for (const [name, raw] of Object.entries<any>(node?.properties ?? {})) {
      const prop = nodeAt(deref(child(at, 'properties', name)));
      if (prop?.type === 'array' && nodeAt(deref(child(at, 'properties', name, 'items'))).format === 'binary') {
        parts.push(fc.array(fileArb, { maxLength: Math.min(prop.maxItems ?? 4, 10) }).map((files) => files.map((value) => ({ name, value }))));
      } else if (prop?.format === 'binary') {
        parts.push(fc.option(fileArb, { nil: undefined }).map((f) => (f ? [{ name, value: f }] : [])));
      } else if (raw) {
        const value = s.valid(child(at, 'properties', name), name).map((v) => (typeof v === 'string' ? v : JSON.stringify(plain(v))));
        parts.push(fc.option(value, { nil: undefined }).map((v) => (v === undefined ? [] : [{ name, value: v }])));
      }
    }
    if (node?.additionalProperties !== false) {
      const extra = fc.array(
        fc.record({ name: fc.string({ minLength: 1, maxLength: 16, unit: 'grapheme' }), value: fc.string({ maxLength: 64, unit: 'grapheme' }) }),
        { maxLength: 4 },
      );
      parts.push(extra.map((list) => list.filter((p) => !(p.name in (node?.properties ?? {}))).map((p) => ({ name: p.name, value: p.value }))));
    }
    return fc.record({ boundary: boundaryArb, parts: fc.tuple(...parts).map((groups) => groups.flat()) });
  }

  /** Mutations that apply to `t`. */
  private mutation(t: FuzzTarget): fc.Arbitrary<RequestMutation> {
    const caps = this.ctx.caps;
    const list: fc.WeightedArbitrary<RequestMutation>[] = [];
    const add = (weight: number, arbitrary: fc.Arbitrary<RequestMutation>) => list.push({ weight, arbitrary });
    if (t.body?.kind === 'json') {
      add(
        8,
        fc.record({ site: fc.nat({ max: 200 }), m: valueMutationArb() }).map((pm) => ({ kind: 'body' as const, pm })),
      );
      const slots = arraySlots(t.body.schema);
      if (slots.length) {
        const s = this.schemaArbs(t);
        const addItem = fc.oneof(
          ...slots.map((slot) =>
            fc.record({ value: s.valid(slot.items, slot.path.at(-1)), breakFormat: fc.option(fc.nat({ max: 63 }), { nil: undefined }) }).map((r) => ({
              kind: 'body' as const,
              pm: {
                site: 0,
                m: {
                  kind: 'add-item' as const,
                  path: slot.path,
                  items: slot.items,
                  value: r.value,
                  ...(r.breakFormat !== undefined ? { breakFormat: r.breakFormat } : {}),
                },
              },
            })),
          ),
        );
        add(4, addItem);
      }
      add(
        3,
        rawTweakArb().map((tweak) => ({ kind: 'raw-body' as const, tweak })),
      );
    }
    if (t.body?.kind === 'multipart')
      add(
        8,
        multipartMutationArb(caps, multipartTextFields(t.body.schema).length).map((m) => ({ kind: 'multipart' as const, m })),
      );
    if (!t.body) {
      const text = fc.oneof(
        fc.constantFrom('{}', '{"a":1}', 'garbage', '[', '\u0000'),
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
      );
      add(
        1,
        fc.record({ text, padTo: fc.constantFrom(0, 0, 0, 1024 * 1024 + 1) }).map((r) => ({ kind: 'body-on-bodyless' as const, ...r })),
      );
    }
    add(
      2,
      fc.constantFrom(...BAD_CONTENT_TYPES).map((value) => ({ kind: 'content-type' as const, value })),
    );
    add(
      1,
      fc
        .record({ value: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip', 'GZIP', ''), compress: fc.boolean() })
        .map((r) => ({ kind: 'content-encoding' as const, ...r })),
    );
    if (t.auth)
      add(
        2,
        badAuthArb().map((auth) => ({ kind: 'auth' as const, auth })),
      );
    add(
      2,
      badPreferArb().map((values) => ({ kind: 'prefer' as const, values })),
    );
    add(
      1,
      fc
        .array(
          fc.tuple(
            fc.constantFrom('__code', '__error', '__outcome', '__delay'),
            fc.oneof(fc.constantFrom('999', 'x', '', '-1', '60001', '1.5'), oddStringArb()),
          ),
          {
            minLength: 1,
            maxLength: 2,
          },
        )
        .map((pairs) => ({ kind: 'force-query' as const, pairs })),
    );
    const queryParams = t.params.filter((p) => p.in === 'query');
    if (queryParams.length) {
      const value = fc.oneof(
        fc.constantFrom('', '0', '-1', '1.5', '1e3', 'abc', 'NaN', 'Infinity', '%ff', '%zz', '9'.repeat(30), '0x10', ' 1', 'true', '%00', 'null'),
        oddStringArb().map(percentEncode),
      );
      add(
        3,
        fc.record({ name: fc.constantFrom(...queryParams.map((p) => p.name)), raw: value }).map((r) => ({ kind: 'query-param' as const, ...r })),
      );
      // a string parameter with a length limit: an astral character near the limit or a cut point, as astral-at does in JSON bodies
      const limited = queryParams.filter((p) => isLimitedText(p.schema));
      if (limited.length)
        add(
          1,
          fc
            .record({ name: fc.constantFrom(...limited.map((p) => p.name)), p: astralPlacementArb() })
            .map((r) => ({ kind: 'query-astral' as const, name: r.name, ...r.p })),
        );
    }
    add(
      1,
      junkQueryArb().map((raw) => ({ kind: 'query-junk' as const, raw })),
    );
    const pathParams = t.params.filter((p) => p.in === 'path');
    if (pathParams.length)
      add(
        4,
        fc.record({ name: fc.constantFrom(...pathParams.map((p) => p.name)), raw: badSegmentArb() }).map((r) => ({ kind: 'path-param' as const, ...r })),
      );
    add(
      1,
      junkHeaderArb().map((h) => ({ kind: 'header' as const, ...h })),
    );
    return fc.oneof(...list);
  }
}
