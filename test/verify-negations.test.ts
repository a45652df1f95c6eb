/**
 * The verifier's bodies for the `contains` and `not` rules (verify/negations.ts), without a server: for every JSON
 * body of the document, each body found breaks its rule fragment and nothing else of the schema (judged by a
 * validator compiled here over spec/openapi.json, apart from the verifier's), carries the fragment's code, and the
 * rules the documents write down (hand-picked below) are among those found; the in-process mock refuses each body
 * with that code.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';
import { loadPackageDocument, operationsOf, validatorsOf } from '../verify/document.ts';
import { brokenNegations, type NegatedBody } from '../verify/negations.ts';
import { declaredBodies } from '../verify/requests.ts';
import { sampleValue } from '../verify/rules.ts';

const doc = loadPackageDocument();
const ops = operationsOf(doc).filter((o) => o.jsonBody?.$ref && o.method !== 'get' && !o.pathParams.length);
const declared = declaredBodies(operationsOf(doc));
const validate = validatorsOf(doc);
const found = new Map<string, { pointer: string; bodies: NegatedBody[] }>();
for (const op of ops) {
  const pointer = op.jsonBody!.$ref!.slice(1);
  const base = (declared.get(op.operationId) ?? sampleValue(doc, op.jsonBody)) as Record<string, unknown>;
  found.set(op.operationId, { pointer, bodies: brokenNegations(doc, validate, pointer, base) });
}
const all = [...found].flatMap(([operationId, f]) => f.bodies.map((b) => ({ operationId, pointer: f.pointer, ...b })));

/** A validator of the document compiled here (not the verifier's), and the fragment a rule name points at. */
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8')), 'spec');
const at = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .reduce<any>((n, k) => n?.[k], doc);
const fragmentOf = (pointer: string, rule: string) => {
  const frags = at(pointer).allOf as Record<string, unknown>[];
  const i = frags.findIndex((f) => f['x-rule'] === rule.replace(/^(contains|not) /, ''));
  return { i, fragment: frags[i] };
};

describe('bodies breaking the contains and not rules', () => {
  it('are found for both keywords', () => {
    expect(all.filter((b) => b.rule.startsWith('contains ')).length).toBeGreaterThanOrEqual(3);
    expect(all.filter((b) => b.rule.startsWith('not ')).length).toBeGreaterThanOrEqual(5);
  });

  it('each breaks its fragment, and nothing else of the schema, and expects the fragment code', () => {
    for (const b of all) {
      const { i, fragment } = fragmentOf(b.pointer, b.rule);
      expect(i, `${b.operationId} ${b.rule}`).toBeGreaterThanOrEqual(0);
      expect(b.code).toBe(fragment['x-error-code']);
      const whole = ajv.compile({ $ref: `spec#${b.pointer}` });
      expect(whole(b.body), `${b.operationId} ${b.rule}`).toBe(false);
      const others = { ...at(b.pointer), allOf: (at(b.pointer).allOf as unknown[]).filter((_, j) => j !== i) };
      const rest = ajv.compile(JSON.parse(JSON.stringify(others).replaceAll('"#/components/', '"spec#/components/')));
      expect(rest(b.body), `${b.operationId} ${b.rule}: ${JSON.stringify(rest.errors?.[0])}`).toBe(true);
    }
  });

  it.each([
    // document 1, "Content items": "last_frame needs a first_frame" (a family1 model, the example's)
    [
      'createVideoTask',
      'contains video.content.last-frame-needs-first',
      (b: any) => b.content.some((c: any) => c.role === 'last_frame') && !b.content.some((c: any) => c.role === 'first_frame'),
    ],
    // document 1, "Video models": "family4-video has no ... last_frame and no audio_url"
    [
      'createVideoTask',
      'not video.content.last-frame-unsupported',
      (b: any) => b.model === 'family4-video' && b.content.some((c: any) => c.role === 'last_frame'),
    ],
    // document 1, "Content items": "at most one text"
    ['createVideoTask', 'contains video.content.text-max', (b: any) => b.content.filter((c: any) => c.type === 'text').length === 2],
    // document 2, generated audio: voices "mutually exclusive with image"
    ['createPlatformVoiceTask', 'not gen-audio.voices-or-image', (b: any) => Array.isArray(b.voices) && typeof b.image === 'object'],
    // document 3, music: vocalId "musicA only"
    ['generateMusic', 'not music.generate.vocal-id-musicA-only', (b: any) => b.provider === 'musicB' && typeof b.vocalId === 'string'],
  ] as const)('%s: %s, a body the document forbids', (operationId, rule, shows) => {
    const b = all.find((x) => x.operationId === operationId && x.rule === rule);
    expect(b, `${operationId} ${rule}`).toBeDefined();
    expect(shows(b!.body)).toBe(true);
  });

  it('the mock refuses each with the fragment code', async () => {
    const mock = createMock({ seed: 1 });
    try {
      for (const b of all) {
        const op = ops.find((o) => o.operationId === b.operationId)!;
        // past the per-minute create limits
        mock.advance(60_000);
        const a = await mock.fetch(op.path, {
          method: 'POST',
          headers: { authorization: 'Bearer mg_negations_secret1', 'content-type': 'application/json' },
          body: JSON.stringify(b.body),
        });
        const j = (await a.json()) as { code: number };
        expect([a.status, j.code], `${b.operationId} ${b.rule}`).toEqual([400, b.code]);
      }
    } finally {
      await mock.close();
    }
  });
});
