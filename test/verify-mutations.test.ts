/**
 * mediagen-verify against providers with one realistic bug each: a proxy in
 * front of one in-process mock applies a mutation (test/verify-servers.ts),
 * and the report must fail and name the bug by operation and violated rule
 * (docs/guides/verify.md). Expected names come from the contract's rules, not
 * from the verifier's output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from '../mock/index.ts';
import { formatTable, toJUnit, verify, type VerifyOptions } from '../verify/index.ts';
import { editJson, editRequest, mutatingProxy, type Exchange, type Listening, type Mutation, type Reply } from './verify-servers.ts';

const KEY = 'mg_verifym1_secret1';
const OTHER = 'mg_verifym2_secret2';
const FRESH = 'mg_verifyfresh_secret1';

let mock: InProcessMock;
let proxy: Listening & { use(m: Mutation | undefined): void };

beforeAll(async () => {
  mock = createMock({ seed: 3 });
  proxy = await mutatingProxy(await mock.listen());
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

const isImageRead = (req: Exchange) => req.method === 'GET' && /^\/v1\/images\/generation\/tasks\/img_/.test(req.path);
const isImageCreate = (req: Exchange) => req.method === 'POST' && req.path === '/v1/images/generation/async';
const isBalance = (req: Exchange) => req.path === '/v1/user/subscription';
const envelope = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(body)),
});
const dropNulls = (o: unknown): unknown =>
  Array.isArray(o)
    ? o.map(dropNulls)
    : o && typeof o === 'object'
      ? Object.fromEntries(
          Object.entries(o)
            .filter(([, v]) => v !== null)
            .map(([k, v]) => [k, dropNulls(v)]),
        )
      : o;

interface Case {
  bug: string;
  options: Partial<VerifyOptions>;
  mutation: () => Mutation;
  operationId: string;
  violation: string;
  /** The check that must name it, when several could. */
  rule?: RegExp;
}

const image: Partial<VerifyOptions> = { mode: 'full', operations: ['createImageTask'] };
const cases: Case[] = [
  {
    bug: 'a task never reaches a terminal status',
    options: image,
    mutation: () => ({ answer: (req, r) => (isImageRead(req) ? editJson(r, (j) => ((j.data.status = 'generating'), delete j.data.images)) : r) }),
    operationId: 'createImageTask',
    violation: 'terminal status reached',
  },
  {
    bug: 'a task charged twice',
    options: image,
    mutation: () => {
      let created = false;
      return {
        answer: (req, r) => {
          if (isImageCreate(req) && !req.headers.prefer && r.status === 202) created = true;
          return created && isBalance(req) ? editJson(r, (j) => (j.data.balance -= 6)) : r;
        },
      };
    },
    operationId: 'createImageTask',
    violation: 'balance moves as charged',
  },
  {
    bug: 'a failed task not refunded',
    options: image,
    mutation: () => {
      let failed = false;
      return {
        answer: (req, r) => {
          if (req.headers.prefer?.includes('outcome=failed')) failed = true;
          return failed && isBalance(req) ? editJson(r, (j) => (j.data.balance -= 6)) : r;
        },
      };
    },
    operationId: 'createImageTask',
    violation: 'failure refunded',
  },
  {
    bug: 'an invalid body accepted (an unknown model estimated as the default)',
    options: { operations: ['estimateImageCredits'] },
    mutation: () => ({
      request: (req) =>
        req.path.includes('/images/generation/estimate-credits')
          ? editRequest(req, (b) => (String(b.model).startsWith('not-declared') ? { ...b, model: 'image-a-2' } : b))
          : req,
    }),
    operationId: 'estimateImageCredits',
    violation: 'body rule enforced',
  },
  {
    bug: 'the envelope code as a string',
    options: { operations: ['listImageTasks'] },
    mutation: () => ({ answer: (_req, r) => editJson(r, (j) => (j.code = String(j.code))) }),
    operationId: 'listImageTasks',
    violation: 'response schema',
  },
  {
    bug: 'null fields dropped from a task',
    options: { mode: 'full', operations: ['createVideoTask'] },
    mutation: () => ({ answer: (req, r) => (/^\/v1\/video-generation\/tasks\/vt_/.test(req.path) ? editJson(r, (j) => (j.data = dropNulls(j.data))) : r) }),
    operationId: 'getVideoTask',
    violation: 'response schema',
  },
  {
    bug: 'an undeclared status (201 for a create declared 202)',
    options: image,
    mutation: () => ({ answer: (req, r) => (isImageCreate(req) && r.status === 202 ? { ...r, status: 201 } : r) }),
    operationId: 'createImageTask',
    violation: 'status declared',
  },
  {
    bug: 'media answering 404',
    options: image,
    mutation: () => ({ answer: (req, r) => (req.path.startsWith('/media/') ? envelope(404, { code: 404, message: 'gone', data: null }) : r) }),
    operationId: 'createImageTask',
    violation: 'media loads',
  },
  {
    bug: 'media with the wrong Content-Type',
    options: image,
    mutation: () => ({ answer: (req, r) => (req.path.startsWith('/media/') ? { ...r, headers: { ...r.headers, 'content-type': 'image/jpeg' } } : r) }),
    operationId: 'createImageTask',
    violation: 'media content type',
  },
  {
    bug: 'media cut to half their bytes',
    options: image,
    mutation: () => ({ answer: (req, r) => (req.path.startsWith('/media/') ? { ...r, body: r.body.subarray(0, r.body.length >> 1) } : r) }),
    operationId: 'createImageTask',
    violation: 'media whole',
  },
  {
    bug: 'a task saying the wrong duration',
    options: { mode: 'full', allowUnpriced: true, operations: ['createPlatformVoiceTask'] },
    mutation: () => ({
      answer: (req, r) =>
        /^\/v1\/platform-voice\/tasks\//.test(req.path) ? editJson(r, (j) => typeof j.data?.audioDuration === 'number' && (j.data.audioDuration += 5)) : r,
    }),
    operationId: 'createPlatformVoiceTask',
    violation: 'media duration',
  },
  {
    bug: 'a video of the wrong pixel size (720p said, 1080p made)',
    options: { mode: 'full', operations: ['createVideoTask'] },
    mutation: () => ({
      answer: (req, r) =>
        /^\/v1\/video-generation\/tasks\/vt_/.test(req.path) ? editJson(r, (j) => j.data?.resolution === '720p' && (j.data.resolution = '1080p')) : r,
    }),
    operationId: 'createVideoTask',
    violation: 'media pixel size',
  },
  {
    bug: 'a 429 without Retry-After',
    options: image,
    mutation: () => {
      let sent = false;
      return {
        answer: (req, r) => {
          if (!isImageCreate(req) || sent) return r;
          sent = true;
          return envelope(429, { code: 26029, message: 'rate limited', data: null });
        },
      };
    },
    operationId: 'createImageTask',
    violation: 'Retry-After',
  },
  {
    bug: "another key's task readable",
    options: image,
    mutation: () => ({
      request: (req) => (req.headers.authorization === `Bearer ${OTHER}` ? { ...req, headers: { ...req.headers, authorization: `Bearer ${KEY}` } } : req),
    }),
    operationId: 'getImageTask',
    violation: 'ownership',
  },
  {
    bug: 'a range not enforced (durationHint over 110 clamped)',
    options: { operations: ['createPlatformVoiceTask'] },
    mutation: () => ({
      request: (req) => (req.path === '/v1/platform-voice/generate' ? editRequest(req, (b) => (b.durationHint > 110 ? { ...b, durationHint: 110 } : b)) : req),
    }),
    operationId: 'createPlatformVoiceTask',
    violation: 'body rule enforced',
  },
  {
    bug: 'an over-long prompt silently truncated',
    options: { operations: ['createLyricsTask'] },
    mutation: () => ({
      request: (req) =>
        req.path === '/v1/lyrics/generate'
          ? editRequest(req, (b) => (typeof b.prompt === 'string' && b.prompt.length > 200 ? { ...b, prompt: b.prompt.slice(0, 200) } : b))
          : req,
    }),
    operationId: 'createLyricsTask',
    violation: 'body rule enforced',
  },
  {
    bug: 'the balance answered as text/plain',
    options: image,
    mutation: () => ({ answer: (req, r) => (isBalance(req) ? { ...r, headers: { ...r.headers, 'content-type': 'text/plain' } } : r) }),
    operationId: 'getSubscription',
    violation: 'content type',
  },
  {
    bug: 'a status moving back (success to generating)',
    options: image,
    mutation: () => {
      const seen = new Set<string>();
      return {
        answer: (req, r) =>
          isImageRead(req)
            ? editJson(r, (j) => {
                if (j.data.status !== 'success') return;
                if (!seen.has(req.path)) return void seen.add(req.path);
                j.data.status = 'generating';
                delete j.data.images;
              })
            : r,
      };
    },
    operationId: 'createImageTask',
    violation: 'transition allowed',
  },
  {
    bug: 'keyless requests accepted',
    options: { operations: ['listImageTasks'] },
    mutation: () => ({ request: (req) => (req.headers.authorization ? req : { ...req, headers: { ...req.headers, authorization: `Bearer ${KEY}` } }) }),
    operationId: 'listImageTasks',
    violation: 'key required',
  },
  {
    bug: 'a read answering another task',
    options: image,
    mutation: () => ({ answer: (req, r) => (isImageRead(req) ? editJson(r, (j) => j.data && (j.data.taskId = 'img_0000000000000000')) : r) }),
    operationId: 'createImageTask',
    violation: 'task read back',
  },
  {
    bug: 'safe mode: a create body not validated (every image create accepted)',
    options: { operations: ['createImageTask'] },
    mutation: () => ({
      request: (req) => (isImageCreate(req) ? editRequest(req, () => ({ provider: 'vendor_a', model: 'image-a-2', prompt: 'a kite' })) : req),
    }),
    operationId: 'getSubscription',
    violation: 'safe mode spends nothing',
  },
  {
    bug: 'a task charged more than its estimate',
    options: image,
    mutation: () => ({
      answer: (req, r) => (req.path.includes('/images/generation/estimate-credits') ? editJson(r, (j) => j.data && (j.data.credits = 3)) : r),
    }),
    operationId: 'createImageTask',
    violation: 'charged as estimated',
  },
  {
    bug: 'a list whose second page repeats the first',
    options: { mode: 'full', operations: ['createImageTask', 'listImageTasks'] },
    mutation: () => ({
      request: (req) => (req.path.startsWith('/v1/images/generation/tasks?page=2') ? { ...req, path: req.path.replace('page=2', 'page=1') } : req),
    }),
    operationId: 'listImageTasks',
    violation: 'no duplicate across pages',
  },
  {
    bug: "a conditional rule not enforced (a model's resolution limit: 1080p quietly made 720p)",
    options: { operations: ['estimateVideoCredits'] },
    mutation: () => ({
      request: (req) =>
        req.path === '/v1/video-generation/estimate-credits'
          ? editRequest(req, (b) => (b.model === 'family1-video-2-fast' && b.resolution === '1080p' ? { ...b, resolution: '720p' } : b))
          : req,
    }),
    operationId: 'estimateVideoCredits',
    violation: 'body rule enforced',
  },
  {
    bug: 'a nested field not validated (an unknown voice type taken as a speaker)',
    options: { operations: ['createPlatformVoiceTask'] },
    mutation: () => ({
      request: (req) =>
        req.path === '/v1/platform-voice/generate'
          ? editRequest(req, (b) =>
              Array.isArray(b.voices) && String(b.voices[0]?.type).startsWith('not-declared') ? { ...b, voices: [{ ...b.voices[0], type: 'speaker' }] } : b,
            )
          : req,
    }),
    operationId: 'createPlatformVoiceTask',
    violation: 'body rule enforced',
  },
  {
    bug: 'a 500 on a list',
    options: { operations: ['listImageTasks'] },
    mutation: () => ({
      answer: (req, r) =>
        req.path.startsWith('/v1/images/generation/tasks') ? { ...editJson(r, (j) => ((j.code = 10500), (j.data = null))), status: 500 } : r,
    }),
    operationId: 'listImageTasks',
    violation: 'status declared',
  },
  {
    bug: 'an undeclared error code',
    options: { operations: ['estimateImageCredits'] },
    mutation: () => ({ answer: (_req, r) => (r.status === 400 ? editJson(r, (j) => (j.code = 99999)) : r) }),
    operationId: 'estimateImageCredits',
    violation: 'error code declared',
  },
  {
    bug: 'a list redirected elsewhere (302)',
    options: { operations: ['listImageTasks'] },
    mutation: () => ({
      answer: (req, r) =>
        req.path.startsWith('/v1/images/generation/tasks') ? { status: 302, headers: { location: 'http://127.0.0.1:9/x' }, body: Buffer.alloc(0) } : r,
    }),
    operationId: 'listImageTasks',
    violation: 'status declared',
  },
  // the later stages of a task (x-lifecycle with continues) and the contains / not body rules
  {
    bug: 'a clone confirmation that never completes (the task never reads confirmed)',
    options: { mode: 'full', operations: ['createVoiceClone', 'confirmVoiceClone'] },
    mutation: () => ({
      answer: (req, r) => (req.method === 'GET' && /^\/v1\/voice-clone\/clone\/[^/]+$/.test(req.path) ? editJson(r, (j) => delete j.data?.speakerId) : r),
    }),
    operationId: 'confirmVoiceClone',
    violation: 'success carries',
  },
  {
    bug: "a page deck's video that never reaches a terminal status",
    options: { mode: 'full', allowUnpriced: true, operations: ['createStorybookEpisode', 'createStorybookVideo'] },
    mutation: () => ({
      answer: (req, r) =>
        req.method === 'GET' && /^\/v1\/storybook\/episodes\/[^/]+$/.test(req.path)
          ? editJson(r, (j) => j.data?.videoStatus === 'success' && ((j.data.videoStatus = 'pending'), (j.data.videoUrl = '')))
          : r,
    }),
    operationId: 'createStorybookVideo',
    violation: 'terminal status reached',
  },
  {
    bug: 'a two-stage podcast whose audio stage never ends (contentStatus stays text-success)',
    options: { mode: 'full', allowUnpriced: true, operations: ['createPodcastTextContent', 'createPodcastAudio'] },
    mutation: () => ({
      answer: (req, r) =>
        req.method === 'GET' && /^\/v1\/podcast\/episodes\/[^/]+$/.test(req.path)
          ? editJson(r, (j) => j.data?.contentStatus === 'audio-success' && (j.data.contentStatus = 'text-success'))
          : r,
    }),
    operationId: 'createPodcastAudio',
    violation: 'terminal status reached',
  },
  {
    bug: 'a not rule unenforced (voices and image together accepted: the image dropped)',
    options: { operations: ['createPlatformVoiceTask'] },
    mutation: () => ({
      request: (req) =>
        req.path === '/v1/platform-voice/generate'
          ? editRequest(req, (b) => (b.voices && b.image && typeof b.image === 'object' ? { ...b, image: undefined } : b))
          : req,
    }),
    operationId: 'createPlatformVoiceTask',
    violation: 'body rule enforced',
    rule: /^body rule: not gen-audio\.voices-or-image$/,
  },
  {
    bug: 'a contains rule unenforced (a last frame without a first frame accepted as a reference image)',
    options: { operations: ['createVideoTask'] },
    mutation: () => ({
      request: (req) =>
        req.path === '/v1/video-generation/generate'
          ? editRequest(req, (b) => {
              const content = Array.isArray(b.content) ? (b.content as { role?: string }[]) : [];
              if (!content.some((c) => c.role === 'last_frame') || content.some((c) => c.role === 'first_frame')) return b;
              return { ...b, content: content.map((c) => (c.role === 'last_frame' ? { ...c, role: 'reference_image' } : c)) };
            })
          : req,
    }),
    operationId: 'createVideoTask',
    violation: 'body rule enforced',
    rule: /^body rule: contains video\.content\.last-frame-needs-first$/,
  },
  // rules on array items and rules nested deep in a fragment (bodies found by search, verify/negations.ts)
  {
    bug: 'a rule on an array item unenforced (a voice entry with both an id and a url text accepted: the url dropped)',
    options: { operations: ['createPlatformVoiceTask'] },
    mutation: () => ({
      request: (req) =>
        req.path === '/v1/platform-voice/generate'
          ? editRequest(req, (b) =>
              Array.isArray(b.voices) && b.voices.some((v: any) => v?.id !== undefined && typeof v?.url === 'string')
                ? { ...b, voices: b.voices.map(({ url: _url, ...v }: any) => (v.id !== undefined && typeof _url === 'string' ? v : { ...v, url: _url })) }
                : b,
            )
          : req,
    }),
    operationId: 'createPlatformVoiceTask',
    violation: 'body rule enforced',
    rule: /^body rule: not gen-audio\.voice-id-or-url$/,
  },
  {
    bug: "a rule on sources[].uri unenforced (a url source's ftp uri read as https)",
    options: { operations: ['createFlowSpeechEpisode'] },
    mutation: () => ({
      request: (req) =>
        req.path === '/v1/flow-speech/episodes'
          ? editRequest(req, (b) =>
              Array.isArray(b.sources)
                ? { ...b, sources: b.sources.map((src: any) => (typeof src?.uri === 'string' ? { ...src, uri: src.uri.replace(/^ftp:/i, 'https:') } : src)) }
                : b,
            )
          : req,
    }),
    operationId: 'createFlowSpeechEpisode',
    violation: 'body rule enforced',
    rule: /^body rule: pattern flow-speech\.url-uri-http$/,
  },
  {
    bug: 'a rule nested deep in a fragment unenforced (frame and reference roles mixed: the reference items dropped)',
    options: { operations: ['createVideoTask'] },
    mutation: () => ({
      request: (req) =>
        req.path === '/v1/video-generation/generate'
          ? editRequest(req, (b) => {
              const content = Array.isArray(b.content) ? (b.content as { type?: string; role?: string }[]) : [];
              const frame = (c: { type?: string; role?: string }) => c.role === 'first_frame' || c.role === 'last_frame';
              const reference = (c: { type?: string; role?: string }) =>
                c.type === 'video_url' || c.type === 'audio_url' || (c.type === 'image_url' && (!c.role || c.role === 'reference_image'));
              if (!content.some(frame) || !content.some(reference)) return b;
              const { inputVideoDuration: _gone, ...rest } = b;
              return { ...rest, content: content.filter((c) => !reference(c)) };
            })
          : req,
    }),
    operationId: 'createVideoTask',
    violation: 'body rule enforced',
    rule: /^body rule: not video\.content\.roles-not-mixed$/,
  },
];

const table: string[] = [];
afterAll(() => console.log(`mutation | caught | named\n${table.join('\n')}`));

describe('verify against a provider with one bug', () => {
  it.each(cases)('finds $bug', async (c) => {
    mock.reset(3);
    proxy.use(c.mutation());
    const freshCredits = mock.account(FRESH).credits;
    try {
      const report = await verify({ baseUrl: proxy.url, apiKey: KEY, secondApiKey: OTHER, mock: true, ...c.options });
      const hit = report.checks.find(
        (x) => x.outcome === 'failed' && x.operationId === c.operationId && x.violation === c.violation && (!c.rule || c.rule.test(x.rule)),
      );
      table.push(`${c.bug} | ${hit ? 'yes' : 'NO'} | ${hit ? `${hit.operationId}: ${hit.rule} (${hit.cause})` : ''}`);
      const found = report.checks.filter((x) => x.outcome === 'failed').map((x) => `${x.operationId}: ${x.rule}: ${x.violation}`);
      expect(hit, `expected ${c.operationId}: ${c.violation}; found ${found.join(' | ')}`).toBeDefined();
      expect(report.ok).toBe(false);
      expect(hit!.evidence!.request).toBeTruthy();
      expect(formatTable(report)).toContain(hit!.cause!);
      expect(toJUnit(report)).toContain(`name="${c.operationId}: ${hit!.rule}" time="`);
      // a 429 is waited out and sent again: a retry, counted apart from the checks
      if (c.violation === 'Retry-After') expect(report.retries).toBeGreaterThan(0);
      // the measured spend is the balance change the mock itself saw (except where the bug is in the balance answer)
      if (!/balance|charged|refunded/.test(c.bug) && report.creditsSpent !== undefined)
        expect(report.creditsSpent).toBe(freshCredits - mock.account(KEY).credits);
    } finally {
      proxy.use(undefined);
    }
  });

  it('safe mode stops creating after the first accepted create, and charged work stops when the balance cannot be read', async () => {
    mock.reset(3);
    const fresh = mock.account(FRESH).credits;
    proxy.use(cases.find((c) => c.bug.startsWith('safe mode'))!.mutation());
    const safe = await verify({ baseUrl: proxy.url, apiKey: KEY, mock: true, operations: ['createImageTask'], concurrency: 1 });
    proxy.use(undefined);
    // concurrency 1: exactly one refused body went through before everything that could create stopped
    expect(fresh - mock.account(KEY).credits).toBe(6);
    expect(safe.creditsSpent).toBe(6);
    expect(
      safe.checks.filter((c) => c.operationId === 'createImageTask' && c.outcome === 'skipped' && /nothing more that could create/.test(c.reason ?? '')).length,
    ).toBeGreaterThan(3);

    mock.reset(3);
    proxy.use(cases.find((c) => c.bug.startsWith('the balance answered'))!.mutation());
    const full = await verify({ baseUrl: proxy.url, apiKey: KEY, mock: true, mode: 'full', operations: ['createImageTask'] });
    proxy.use(undefined);
    expect(full.creditsSpent).toBeUndefined();
    expect(mock.account(KEY).credits).toBe(fresh);
    const lifecycle = full.checks.find((c) => c.operationId === 'createImageTask' && c.rule === 'lifecycle');
    expect(lifecycle?.outcome).toBe('skipped');
    expect(lifecycle?.reason).toMatch(/balance cannot be read/);
  });
});
