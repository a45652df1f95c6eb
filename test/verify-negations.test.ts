/**
 * The verifier's bodies breaking the rule fragments under `allOf` (verify/negations.ts), without a server: every
 * body rule docs/rules.md lists gets a body; each body breaks its fragment and nothing else of the schema (judged by
 * a validator compiled here over spec/openapi.json, apart from the verifier's), carries the fragment's code, and the
 * rules the documents write down (hand-picked below) are broken as they say; the in-process mock refuses each body
 * (multipart ones as forms) with that code.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';
import { loadPackageDocument, operationsOf, validatorsOf } from '../verify/document.ts';
import { brokenFragments, missedFragments, type NegatedBody } from '../verify/negations.ts';
import { bodyPointer, declaredBodies, searchBases } from '../verify/requests.ts';
import { formOf } from '../verify/rules.ts';

const doc = loadPackageDocument();
// the operations with a body; one on a thing (a voice's update) gets the body on a thing the run made (verify/cleanup.ts)
const ops = operationsOf(doc).filter((o) => (o.jsonBody ?? o.multipartBody)?.$ref && o.method !== 'get');
const declared = declaredBodies(operationsOf(doc));
const validate = validatorsOf(doc);
const found = new Map<string, { pointer: string; bodies: NegatedBody[]; missed: string[] }>();
for (const op of ops) {
  const pointer = bodyPointer(op);
  const bodies = brokenFragments(doc, validate, pointer, searchBases(doc, op, declared.get(op.operationId)));
  found.set(op.operationId, { pointer, bodies, missed: missedFragments(doc, pointer, bodies) });
}
const all = [...found].flatMap(([operationId, f]) => f.bodies.map((b) => ({ operationId, pointer: f.pointer, ...b })));

/** The body rules docs/rules.md lists (operation, rule id), read from its table. */
const listed = readFileSync(new URL('../docs/rules.md', import.meta.url), 'utf8')
  .split('## Rules beyond the schema')[0]
  .split('\n')
  .filter((l) => /^\| \w+ \|/.test(l) && !l.startsWith('| operation |'))
  .map((l) => {
    const cells = l.split(' | ');
    return { operationId: cells[0].replace(/^\| /, ''), id: /`([^`]+)` \|$/.exec(l)![1] };
  });

/** A validator of the document compiled here (not the verifier's). */
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8')), 'spec');
const at = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .reduce<any>((n, k) => n?.[k], doc);
const compile = (schema: unknown) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"spec#/components/')));
const wholes = new Map<string, ReturnType<typeof ajv.compile>>();
const wholeOf = (pointer: string) => {
  if (!wholes.has(pointer)) wholes.set(pointer, ajv.compile({ $ref: `spec#${pointer}` }));
  return wholes.get(pointer)!;
};
const same = (e: ErrorObject) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`;

describe('bodies breaking the rule fragments under allOf', () => {
  it('every body rule docs/rules.md lists gets a body', () => {
    expect(listed.length).toBe(Number(/## Body rules \((\d+)\)/.exec(readFileSync(new URL('../docs/rules.md', import.meta.url), 'utf8'))![1]));
    const got = new Set(all.map((b) => `${b.operationId} ${b.ruleId}`));
    const without = listed.filter((r) => !got.has(`${r.operationId} ${r.id}`)).map((r) => `${r.operationId} ${r.id}`);
    console.log(`body rules in docs/rules.md: ${listed.length}; with a derived negative body: ${listed.length - without.length}`);
    expect(without).toEqual([]);
    expect([...found.values()].flatMap((f) => f.missed)).toEqual([]);
  });

  it('each breaks its fragment, and nothing else of the schema but what the fragment says too, and expects the fragment code', () => {
    for (const b of all) {
      const schema = at(b.pointer);
      const fragment = schema.allOf[b.fragment];
      expect(fragment['x-rule'], `${b.operationId} ${b.rule}`).toBe(b.ruleId);
      expect(b.code).toBe(fragment['x-error-code']);
      const whole = wholeOf(b.pointer);
      expect(whole(b.body), `${b.operationId} ${b.rule}`).toBe(false);
      const alone = compile({ allOf: [fragment] });
      expect(alone(b.body), `${b.operationId} ${b.rule}: the fragment alone`).toBe(false);
      // every error of the whole schema is one the fragment alone gives (a field's own maxLength the fragment repeats too)
      const mine = new Set((alone.errors ?? []).map(same));
      const other = (whole.errors ?? []).filter((e) => !mine.has(same(e)));
      expect(other, `${b.operationId} ${b.rule}`).toEqual([]);
    }
  });

  it.each([
    // document 1, "Content items": "last_frame needs a first_frame" (a family1 model, the example's)
    [
      'createVideoTask',
      'video.content.last-frame-needs-first',
      (b: any) => b.content.some((c: any) => c.role === 'last_frame') && !b.content.some((c: any) => c.role === 'first_frame'),
    ],
    // document 1, "Video models": "family4-video has no ... last_frame and no audio_url"
    ['createVideoTask', 'video.content.last-frame-unsupported', (b: any) => b.model === 'family4-video' && b.content.some((c: any) => c.role === 'last_frame')],
    // document 1, "Content items": "at most one text"
    ['createVideoTask', 'video.content.text-max', (b: any) => b.content.filter((c: any) => c.type === 'text').length === 2],
    // document 1, "Content items": frame roles and reference roles are not mixed
    [
      'createVideoTask',
      'video.content.roles-not-mixed',
      (b: any) =>
        b.content.some((c: any) => ['first_frame', 'last_frame'].includes(c.role)) &&
        b.content.some((c: any) => ['video_url', 'audio_url'].includes(c.type) || (c.type === 'image_url' && (!c.role || c.role === 'reference_image'))),
    ],
    // document 2, generated audio: voices "mutually exclusive with image"
    ['createPlatformVoiceTask', 'gen-audio.voices-or-image', (b: any) => Array.isArray(b.voices) && typeof b.image === 'object'],
    // document 2, generated audio: a voice entry is a speaker id or a recording's url (an item of an array)
    ['createPlatformVoiceTask', 'gen-audio.voice-id-or-url', (b: any) => b.voices.some((v: any) => v.id !== undefined && v.url !== undefined)],
    // document 2, generated audio: dialogue tags name voices 1 to 3 (a `not` holding a `pattern`)
    ['createPlatformVoiceTask', 'gen-audio.dialogue-voice-range', (b: any) => /@音频0*[4-9]/.test(b.text)],
    // document 2, flow speech: a url source's uri is http or https (sources[].uri)
    ['createFlowSpeechEpisode', 'flow-speech.url-uri-http', (b: any) => b.sources[0].type === 'url' && !/^https?:\/\//i.test(b.sources[0].uri)],
    // document 3, music: vocalId "musicA only"
    ['generateMusic', 'music.generate.vocal-id-musicA-only', (b: any) => b.provider === 'musicB' && typeof b.vocalId === 'string'],
    // document 3, music: an extend names its track by trackIndex or providerSongId, not both (a multipart body)
    ['extendMusic', 'music.extend.track-index-or-song-id', (b: any) => b.trackIndex !== undefined && b.providerSongId !== undefined],
    // family5 lip sync: a video, or a source task or video, not both and not neither
    [
      'createFamily5VideoTask',
      'family5.lip_sync.source',
      (b: any) => b.capability === 'lip_sync' && (b.videos?.length ?? 0) > 0 === Boolean(b.sourceTaskId ?? b.pixverse?.sourceVideoId),
    ],
  ] as const)('%s: %s, a body the document forbids', (operationId, id, shows) => {
    const b = all.find((x) => x.operationId === operationId && x.ruleId === id);
    expect(b, `${operationId} ${id}`).toBeDefined();
    expect(shows(b!.body), JSON.stringify(b!.body)).toBe(true);
  });

  it('the mock refuses each with the fragment code', async () => {
    const mock = createMock({ seed: 1 });
    const wrong: string[] = [];
    try {
      for (const b of all) {
        const op = ops.find((o) => o.operationId === b.operationId)!;
        // past the per-minute create limits
        mock.advance(60_000);
        const headers: Record<string, string> = { authorization: 'Bearer mg_negations_secret1' };
        if (op.jsonBody) headers['content-type'] = 'application/json';
        const body = op.jsonBody ? JSON.stringify(b.body) : formOf(doc, op.multipartBody, b.body);
        // an operation on a thing: an id of none (the mock reads the body first; the verifier sends it on one it made)
        const path = op.path.replace(/\{\w+\}/g, 'verify-missing-1');
        const a = await mock.fetch(path, { method: op.method.toUpperCase(), headers, body });
        const j = (await a.json()) as { code: number };
        if (a.status !== 400 || j.code !== b.code)
          wrong.push(`${b.operationId} ${b.rule}: ${a.status} ${j.code} (expected 400 ${b.code}) ${JSON.stringify(b.body).slice(0, 300)}`);
      }
    } finally {
      await mock.close();
    }
    expect(wrong).toEqual([]);
  });
});
