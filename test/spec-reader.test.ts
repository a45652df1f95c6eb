/**
 * The emitted service document (spec/openapi.json) read as its reader reads it: a client developer with the
 * three source documents and this file, and nothing of the repository. Every string of the document (descriptions,
 * summaries, x-provenance, examples, the catalog) is searched for words that only make sense to someone who knows
 * the mock (each pattern below says why it misleads); every number the documents call "not shown" is marked
 * assumed; every x-lifecycle and x-rate-limit says where its numbers come from; the choices where a document
 * leaves room are in docs/assumptions.md. The counts are printed.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

const spec = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
const assumptionsMd = readFileSync(new URL('../docs/assumptions.md', import.meta.url), 'utf8');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ops: Record<string, any>[] = Object.values(spec.paths as Record<string, Record<string, any>>).flatMap((item) =>
  METHODS.filter((m) => item[m]).map((m) => item[m]),
);
const byId = Object.fromEntries(ops.map((o) => [o.operationId, o]));

/** Every string of `node` (keys of examples too), with its JSON path. */
function strings(node: unknown, path = '', out: [string, string][] = []): [string, string][] {
  if (typeof node === 'string') out.push([path, node]);
  else if (Array.isArray(node)) node.forEach((n, i) => strings(n, `${path}/${i}`, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      out.push([`${path}/${k} (key)`, k]);
      strings(v, `${path}/${k}`, out);
    }
  return out;
}

/** Words of the mock, and why each misleads a reader of the service's contract. */
const MOCK_WORDING: { pattern: RegExp; why: string }[] = [
  { pattern: /\bmocks?\b|\bmock(ed|ing)\b|mock-/i, why: 'the document describes the service; "the mock" is this repository\'s server, unknown to a client' },
  { pattern: /virtual (clock|time)/i, why: "the mock's clock: the service runs on real time" },
  { pattern: /engine seed|\bseeded\b/i, why: "the mock's determinism: a service's answers do not depend on a seed the client cannot see" },
  { pattern: /\bthe seeds?\b/i, why: 'the repository calls the source documents "seeds"; a reader knows them as documents 1, 2 and 3' },
  { pattern: /\bsimulated\b/i, why: 'the service runs its tasks; "simulated" describes the mock' },
  { pattern: /Node's|Node\.js|\bExpress\b/, why: "the mock's runtime: the service's limits are its own, whatever it runs on" },
  { pattern: /decisions\/|docs\/architecture|\.md\b/, why: "the repository's files: a reader of the document does not have them" },
  { pattern: /\/__mock|X-Mock-Session|\bPrefer:|__(code|error|outcome|delay)\b/, why: "the mock's control API, sessions and forcing: not the service's" },
  { pattern: /\/work\/|\.\.\/shared|issue \d+/i, why: 'paths and issue numbers of the project that wrote the document' },
];

const all = strings(spec);
const counts = { strings: all.length, wordingHits: 0, assumedMarks: 0, lifecycles: 0, rateLimits: 0 };

afterAll(() => {
  console.log(
    `reader's test: ${counts.strings} strings read, ${counts.wordingHits} with mock wording (${MOCK_WORDING.length} patterns); ` +
      `${counts.assumedMarks} x-provenance marked assumed; ${counts.lifecycles} x-lifecycle and ${counts.rateLimits} x-rate-limit, each with its provenance`,
  );
});

describe('no word of the mock in spec/openapi.json', () => {
  it('reads thousands of strings', () => {
    expect(all.length).toBeGreaterThan(5000);
  });
  it.each(MOCK_WORDING.map((w) => [w.pattern.source, w] as const))('%s', (_p, w) => {
    const hits = all.filter(([, s]) => w.pattern.test(s)).map(([p, s]) => `${p}: ${s.slice(0, 160)}`);
    counts.wordingHits += hits.length;
    expect(hits, w.why).toEqual([]);
  });
});

describe('every invention is marked assumed', () => {
  const provenance = all.filter(([p]) => /\/x-provenance$/.test(p)).map(([, s]) => s);
  it('x-provenance is a document section or an assumption with its reason', () => {
    counts.assumedMarks = provenance.filter((s) => s.startsWith('assumed: ')).length;
    expect(counts.assumedMarks).toBeGreaterThan(50);
    for (const s of provenance) expect(s).toMatch(/^(document [123], "[^"]+"|assumed: \S.{10,})/);
  });

  it('every x-lifecycle and x-rate-limit carries its x-provenance', () => {
    for (const o of ops) {
      if (o['x-lifecycle']) {
        counts.lifecycles++;
        expect(o['x-lifecycle']['x-provenance'], `${o.operationId} x-lifecycle`).toMatch(/^(document [123], "|assumed: )/);
        if ('x-timeout-provenance' in o['x-lifecycle'])
          expect(o['x-lifecycle']['x-timeout-provenance'], `${o.operationId} x-lifecycle timeout`).toMatch(/^(document [123], "|assumed: )/);
      }
      if (o['x-rate-limit']) {
        counts.rateLimits++;
        expect(o['x-rate-limit']['x-provenance'], `${o.operationId} x-rate-limit`).toMatch(/^(document [123], "|assumed: )/);
      }
    }
    expect(counts.lifecycles).toBeGreaterThan(5);
    expect(counts.rateLimits).toBeGreaterThan(5);
  });

  // numbers the documents call "not shown" (hand-written from them): each must read as assumed where it is stated
  it.each([
    // document 1, "Limits": "The numeric values of these image rate limits: not shown"
    ['image generate rate', () => byId.generateImage['x-rate-limit']['x-provenance']],
    // document 3, "Limits": "Lyrics creation request limit ... its numeric value: not shown"
    ['lyrics create rate', () => byId.createLyricsTask['x-rate-limit']['x-provenance']],
    // document 1 gives no polling timings for video or image; document 2 none for generated audio
    ['video polling', () => byId.createVideoTask['x-lifecycle']['x-provenance']],
    ['image polling', () => byId.createImageTask['x-lifecycle']['x-provenance']],
    ['generated-audio polling', () => byId.createPlatformVoiceTask['x-lifecycle']['x-provenance']],
    // document 3, "Content extraction": "Recommended polling: wait 5 s, then every 5 s; typical 10-30 seconds" (no longest wait)
    ['extraction timeout', () => byId.createExtraction['x-lifecycle']['x-timeout-provenance']],
  ] as const)('%s is assumed', (_what, read) => {
    expect(read()).toMatch(/^assumed: /);
  });

  it("extraction's polling advice is document 3's: wait 5 s, then every 5 s", () => {
    const lc = byId.createExtraction['x-lifecycle'];
    expect([lc.firstPollMs, lc.intervalMs]).toEqual([5_000, 5_000]);
    expect(lc['x-provenance']).toBe('document 3, "Content extraction"');
  });

  it.each([
    // document 1, "Limits": 5 video generate requests per minute per user
    ['createVideoTask', 5, 'document 1, "Limits"'],
    // document 2, "Errors": HTTP 429 beyond 5 generate requests per minute per user
    ['createPlatformVoiceTask', 5, 'document 2, "Errors"'],
    // document 2: more than 5 clone creates per minute answer 429
    ['createVoiceClone', 5, 'document 2, "Errors"'],
  ] as const)('%s: the documented rate %d comes from %s', (id, limit, from) => {
    expect(byId[id]['x-rate-limit'].limit).toBe(limit);
    expect(byId[id]['x-rate-limit'].windowMs).toBe(60_000);
    expect(byId[id]['x-rate-limit']['x-provenance']).toBe(from);
  });

  it('prices the documents do not show read as assumed where they are stated', () => {
    // document 3, "Limits": "flat costs of the remaining music endpoints: not shown"
    for (const id of ['generateSoundtrack', 'generateTrack', 'remixMusic']) expect(byId[id]?.description, id).toMatch(/Price: a flat \d+ credits \(assumed\)/);
    expect(assumptionsMd).toMatch(/flat prices: \/soundtrack \d+, \/track \d+, \/remix \d+ credits/);
  });

  it('docs/assumptions.md lists every assumed reason of the document', () => {
    const reasons = new Set(provenance.filter((s) => s.startsWith('assumed: ')).map((s) => s.slice('assumed: '.length)));
    const missing = [...reasons].filter((r) => !assumptionsMd.includes(r));
    expect(missing).toEqual([]);
  });

  it('the choices where a document leaves room are listed with their reason', () => {
    // document 1, "Authentication": 401 or 403 for a rejected credential; which operations a user token reaches
    expect(assumptionsMd).toMatch(/a rejected credential .* answers HTTP 401/);
    expect(assumptionsMd).toMatch(/every operation that takes an API key takes a user token too/);
    // document 1, "Image": image-c accepts any ratio
    expect(assumptionsMd).toMatch(/image-c accept any ratio/);
  });
});

describe('what the documents allow stays valid', () => {
  const schemas = spec.components.schemas;
  it('music taskType is an open string (document 3: "operation type (for example GENERATE)")', () => {
    expect(schemas.MusicTask.properties.taskType.type).toBe('string');
    expect(schemas.MusicTask.properties.taskType.enum).toBeUndefined();
  });
  it('family5 templateId, sourceVideoId and restyleId take any string or number (document 1)', () => {
    const opts = schemas.Family5Options.properties;
    for (const f of ['templateId', 'sourceVideoId', 'restyleId']) {
      // a union of the two, or the same as a type list (the form the docs site's reader takes: scripts/spec-compat.ts)
      const f5 = opts[f] as { type?: string[]; anyOf?: { type: string }[]; oneOf?: { type: string }[] };
      const types = (f5.type ?? (f5.anyOf ?? f5.oneOf)!.map((s) => s.type)).slice().sort();
      expect(types, f).toEqual(['number', 'string']);
    }
  });
  it('the sign-in page of the mock is not in the service document', () => {
    expect(Object.keys(spec.paths).filter((p) => p.startsWith('/oauth/'))).toEqual([]);
  });
});

describe('the explanatory text the documents give is in the document', () => {
  const schemas = spec.components.schemas;
  it('page-deck modes, and PPT export unavailable (document 3, "Page-deck episode (GET result)")', () => {
    for (const d of [schemas.StorybookEpisode.properties.mode.description, schemas.StorybookEpisodeRequest.properties.mode.description]) {
      expect(d).toMatch(/info \(default\).*magazine-style cover/);
      expect(d).toMatch(/story: story scene illustrations/);
      expect(d).toMatch(/slides: presentation layouts.*80-100 words/);
      expect(d).toMatch(/PPT file export is unavailable/);
    }
  });
  it('the generated-audio states (document 2, "States and transitions")', () => {
    const d = schemas.GeneratedAudioTask.properties.status.description as string;
    for (const s of ['pending:', 'generating:', 'uploading:', 'success:', 'failed:']) expect(d).toContain(s);
    expect(d).toMatch(/audioUrl not yet available/);
    expect(d).toMatch(/refunded/);
  });
  it('the five family5 switch fields (document 1, "Video: family5 create")', () => {
    const p = schemas.Family5Options.properties;
    expect(p.soundEffectSwitch.description).toMatch(/sound effects/);
    expect(p.soundEffectContent.description).toMatch(/sound-effect description/);
    expect(p.lipSyncTtsSwitch.description).toMatch(/TTS-driven lip sync/);
    expect(p.lipSyncTtsSpeakerId.description).toMatch(/speaker id/);
    expect(p.lipSyncTtsContent.description).toMatch(/spoken text/);
  });
  it('the polling advice is on the reads (document 2, "Podcast"; document 3, "Page-deck episodes")', () => {
    expect(byId.getPodcastEpisode.description).toMatch(/recommended polling: wait 60 s, then every 10 s/i);
    expect(byId.getStorybookEpisode.description).toMatch(/recommended polling: wait 60 s, then every 10 s/i);
    for (const id of ['createPodcastEpisode', 'createStorybookEpisode']) expect(byId[id].description, id).not.toMatch(/every 10 s/);
  });
});
