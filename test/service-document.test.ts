/**
 * The service document (spec/openapi.json) as its users meet it: it reads as the service's contract (no mock-only
 * code, no Prefer, no mock wording, provenance only in x-provenance), every error response refers to the one shared
 * envelope, every JSON request body has a media-type-level example that the mock accepts, and no pattern holds a
 * quote. The generators themselves run in test/generators.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalog, errorNames, type CatalogError } from '../schemas/errors.ts';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { createMock } from '../mock/index.ts';
import { isMockOnly } from '../scripts/spec.ts';

const spec = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
const ops = operationIds.map((id) => operations[id] as OperationDef);
const METHODS = ['get', 'post', 'put', 'delete'];
const specOps = Object.values(spec.paths as Record<string, Record<string, any>>).flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m]));

/** Every string under `node` at a key named `key` (x-provenance and the error catalog skipped), with its path. */
function stringsAt(node: unknown, key: string, path = '', out: [string, string][] = []): [string, string][] {
  if (Array.isArray(node)) node.forEach((n, i) => stringsAt(n, key, `${path}/${i}`, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === 'x-provenance' || k === 'x-error-catalog' || k === 'examples' || k === 'example') continue;
      if (k === key && typeof v === 'string') out.push([`${path}/${k}`, v]);
      else stringsAt(v, key, `${path}/${k}`, out);
    }
  return out;
}

describe('spec/openapi.json reads as the service contract', () => {
  it('declares no mock-only code, anywhere', () => {
    const mockCodes = errorNames.filter(isMockOnly).map((n) => errorCatalog[n].code);
    expect(mockCodes).toContain(10007);
    for (const o of specOps)
      for (const [status, r] of Object.entries(o.responses as Record<string, any>)) {
        for (const c of r['x-error-codes'] ?? []) expect(mockCodes, `${o.operationId} ${status}`).not.toContain(c);
        for (const ex of Object.values<{ value: { code: number } }>(r.content?.['application/json']?.examples ?? {}))
          expect(mockCodes, `${o.operationId} ${status} example`).not.toContain(ex.value.code);
      }
    expect(spec['x-error-catalog'].map((e: { code: number }) => e.code)).not.toContain(10007);
  });

  it('has no Prefer header or forcing parameter', () => {
    for (const o of specOps) for (const p of o.parameters ?? []) expect(String(p.name), o.operationId).not.toMatch(/^(prefer|__\w+)$/i);
    const text = JSON.stringify(spec);
    expect(text.match(/.{0,60}(Prefer:|__code|__error|__outcome).{0,20}/g) ?? []).toEqual([]);
  });

  it('has no mock wording and no provenance in summaries and descriptions', () => {
    const texts = [...stringsAt(spec, 'description'), ...stringsAt(spec, 'summary')];
    expect(texts.length).toBeGreaterThan(500);
    const bad = texts.filter(([, t]) => /\bmock|mediagen|Source: document|\(Assumed:/i.test(t));
    expect(bad.map(([p, t]) => `${p}: ${t.slice(0, 120)}`)).toEqual([]);
  });

  it('provenance stays in x-provenance, on every operation', () => {
    for (const o of specOps) expect(o['x-provenance'], o.operationId).toMatch(/^(document [123], "|assumed: )/);
  });
});

describe('generator-friendly output', () => {
  it('every error response refers to the one ErrorEnvelope and lists its codes', () => {
    expect(spec.components.schemas.ErrorEnvelope.required).toEqual(['code', 'message', 'data']);
    let n = 0;
    for (const o of specOps)
      for (const [status, r] of Object.entries(o.responses as Record<string, any>)) {
        if (Number(status) < 400) continue;
        // a web page's own error page (the sign-in page's) is HTML only; where a status has both, the JSON is the envelope
        if (!r.content?.['application/json']) {
          expect(Object.keys(r.content ?? {}), `${o.operationId} ${status}`).toEqual(['text/html']);
          continue;
        }
        n++;
        expect(r.content['application/json'].schema, `${o.operationId} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
        expect(r['x-error-codes'].length, `${o.operationId} ${status}`).toBeGreaterThan(0);
        for (const c of r['x-error-codes'])
          expect(
            errorNames.some(
              (e) =>
                errorCatalog[e].code === c &&
                [errorCatalog[e].httpStatus, ...((errorCatalog[e] as CatalogError).alsoHttpStatus ?? [])].includes(Number(status) as never),
            ),
          ).toBe(true);
      }
    expect(n).toBeGreaterThan(200);
  });

  it('no pattern holds a quote or a backquote', () => {
    const patterns = stringsAt(spec, 'pattern');
    expect(patterns.length).toBeGreaterThan(0);
    for (const [p, v] of patterns) expect(v, p).not.toMatch(/['"`]/);
  });

  const jsonBodies = ops.filter((op) => op.request.body?.kind === 'json');

  it.each(jsonBodies.map((op) => [op.operationId, op] as const))('%s: its JSON body has a media-type example the mock accepts', async (_id, op) => {
    const content = spec.paths[op.path][op.method].requestBody.content['application/json'];
    expect(content.example, 'media-type-level example').toBeDefined();
    // the schema the mock validates with accepts it
    const parsed = op.request.body!.schema.safeParse(content.example);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    // and the mock, sent over fetch, does not refuse it as invalid (path ids name nothing: a not-found is fine)
    const mock = createMock({ seed: 1, clock: 'manual', strict: true, rateLimit: false });
    const path = op.path.replace(/\{\w+\}/g, 'example_id');
    const res = await mock.fetch(`http://localhost${path}`, {
      method: op.method.toUpperCase(),
      headers: { authorization: 'Bearer mg_example_secret1', 'content-type': 'application/json' },
      body: JSON.stringify(content.example),
    });
    const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
    const body = (json ? await res.json() : { code: 0 }) as { code?: number; message?: string };
    const refusals = new Set<number>([op.validationError, ...Object.values(op.fieldErrors ?? {})].map((n) => errorCatalog[n!].code));
    if (!op.request.params) expect(refusals.has(body.code ?? 0), `${res.status} ${JSON.stringify(body)}`).toBe(false);
    expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    expect(mock.bugs()).toEqual([]);
  });
});

describe('the documents to the letter', () => {
  const schemas = spec.components.schemas;
  const op = (path: string, method: string) => spec.paths[path][method];

  it.each([
    ['music generate customMode', schemas.CreateMusicGenerateRequest.properties.customMode.default, true],
    ['music cover customMode', schemas.CreateMusicCoverRequest.properties.customMode.default, true],
    ['image imageConfig', schemas.ImageConfig.default, { imageSize: '2K' }],
    ['family5 model', schemas.CreateFamily5VideoTaskRequest.properties.model.default, 'family5'],
    ['family5 language', schemas.CreateFamily5VideoTaskRequest.properties.language.default, 'en'],
    ['family5 quality', schemas.CreateFamily5VideoTaskRequest.properties.quality.default, '720p'],
    ['family5 aspectRatio', schemas.CreateFamily5VideoTaskRequest.properties.aspectRatio.default, '16:9'],
    ['family5 duration', schemas.CreateFamily5VideoTaskRequest.properties.duration.default, 5],
    ['family5 estimate duration', schemas.EstimateFamily5CreditsRequest.properties.duration.default, 5],
    ['family5 estimate quality', schemas.EstimateFamily5CreditsRequest.properties.quality.default, '720p'],
    ['video estimate hasVideoInput', schemas.EstimateVideoCreditsRequest.properties.hasVideoInput.default, false],
    ['video estimate ratio', schemas.EstimateVideoCreditsRequest.properties.ratio.default, '16:9'],
  ])('default of %s as the documents state it', (_what, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it.each([
    ['GeneratedAudioTask', 'creditCharged'],
    ['GeneratedAudioTask', 'creditRefunded'],
    ['PodcastEpisode', 'credits'],
    ['PodcastEpisode', 'failCode'],
    ['StorybookEpisode', 'credits'],
    ['StorybookEpisode', 'failCode'],
    ['MusicTask', 'creditCost'],
    ['LyricsTask', 'creditCost'],
    ['ImageEstimateData', 'credits'],
  ])('%s.%s is a number, as the documents say', (schema, field) => {
    expect(schemas[schema].properties[field].type).toBe('number');
  });

  it('"for example" lists stay open: estimate warnings and the languages of podcasts, page decks and the speakers list', () => {
    expect(schemas.ImageEstimateData.properties.warnings.items).toMatchObject({ type: 'string' });
    expect(schemas.ImageEstimateData.properties.warnings.items.enum).toBeUndefined();
    for (const s of [schemas.PodcastRequest, schemas.StorybookEpisodeRequest]) expect(s.properties.language.enum).toBeUndefined();
    const q = op('/v1/speakers/list', 'get').parameters.find((p: { name: string }) => p.name === 'language');
    expect(q.schema.enum).toBeUndefined();
  });

  it('what the documents do not show is marked assumed: the OAuth operations, /extend, /recognize, /describe, /stem', () => {
    for (const [path, method] of [
      ['/v1/oauth/login-sessions', 'post'],
      ['/v1/oauth/token', 'post'],
      ['/v1/oauth/refresh', 'post'],
      ['/v1/oauth/revoke', 'post'],
      ['/v1/music/extend', 'post'],
      ['/v1/music/recognize', 'post'],
      ['/v1/music/describe', 'post'],
      ['/v1/music/stem', 'post'],
    ])
      expect(op(path, method)['x-provenance'], path).toMatch(/^assumed: /);
    const catalog = new Map<number, string>(spec['x-error-catalog'].map((e: { code: number; 'x-provenance': string }) => [e.code, e['x-provenance']]));
    for (const c of [36029, 36030, 36031, 33007]) expect(catalog.get(c), String(c)).toMatch(/^assumed: /);
  });

  it("document 1's two base URLs are servers and the user token a security scheme on every operation with a credential", () => {
    expect(spec.servers.map((s: { url: string }) => s.url)).toEqual(['{base_url}', '{user_api_base_url}']);
    expect(spec.components.securitySchemes.userToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const o of specOps) if (o.security.length) expect(o.security, o.operationId).toEqual([{ apiKey: [] }, { userToken: [] }]);
  });

  it('voice-clone 429s carry the documented Retry-After of 2 s', () => {
    const r = op('/v1/voice-clone/clone', 'post').responses['429'];
    expect(r.headers['Retry-After'].schema.default).toBe(2);
  });
});
