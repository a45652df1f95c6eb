/**
 * Body rules measured against the documents, not against the mock's own rule table (test/spec-rules.test.ts and
 * test/rule-agreement.ts take their cases from schemas/rules.ts, which the mock runs: agreement, not correctness).
 * Every case below is a request body written by hand from document 1, with the answer that document gives:
 * accepted (the success envelope, code 0), refused with HTTP 400 (the shared video endpoint, whose numbers
 * document 1 does not show), or refused with a code document 1 numbers (32004 for family5, 29003 and 26019 for
 * image ratios). Each case names its section. The mock answers all of them in process, each from a key of its own,
 * so no rate limit or balance decides a case, and ajv judges each body against spec/openapi.json
 * (test/document-cases.ts); the test prints both figures and fails on any case that differs. Documents 2 and 3:
 * test/document-rules-2.test.ts, test/document-rules-3.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../schemas/operations.ts';
import { describeRun, runDocumentCases } from './document-cases.ts';
import type { Body } from './factories.ts';

type Expected = 'accepted' | 400 | { code: number };
interface Case {
  /** "document N, section": where the expected answer comes from. */
  source: string;
  what: string;
  path: string;
  body: unknown;
  expected: Expected;
}

const SHARED = '/v1/video-generation/generate';
const FAMILY5 = '/v1/video-generation/family5/generate';
const IMAGE = '/v1/images/generation/async';
const text = (s: string) => ({ type: 'text', text: s });
const image = (n: number, role: string) => ({ type: 'image_url', image_url: { url: `https://example.com/i${n}.png` }, role });
const video = { type: 'video_url', video_url: { url: 'https://example.com/v.mp4' }, role: 'reference_video' };
const audio = { type: 'audio_url', audio_url: { url: 'https://example.com/a.mp3' }, role: 'reference_audio' };
const prompt = 'A lighthouse at dusk, waves rolling in';
const D1 = 'document 1';

const cases: Case[] = [
  // document 1, "Video: create task (shared)" and "Content items (shared video endpoint)"
  {
    source: `${D1}, "Video: create task (shared)"`,
    what: 'a text item alone, every default',
    path: SHARED,
    body: { content: [text(prompt)] },
    expected: 'accepted',
  },
  { source: `${D1}, "Video: create task (shared)"`, what: 'content is required', path: SHARED, body: { model: 'family2-video' }, expected: 400 },
  { source: `${D1}, "Content items", rule 1`, what: 'two text items (at most one)', path: SHARED, body: { content: [text('a'), text('b')] }, expected: 400 },
  { source: `${D1}, "Video models"`, what: 'family5 on the shared endpoint', path: SHARED, body: { model: 'family5', content: [text(prompt)] }, expected: 400 },
  {
    source: `${D1}, "Video: create task (shared)", model limits`,
    what: 'family1-video-2-fast has no 1080p',
    path: SHARED,
    body: { model: 'family1-video-2-fast', resolution: '1080p', content: [text(prompt)] },
    expected: 400,
  },
  {
    source: `${D1}, "Video models"`,
    what: 'family1-video-2-pro at 1080p',
    path: SHARED,
    body: { model: 'family1-video-2-pro', resolution: '1080p', content: [text(prompt)] },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Video: create task (shared)", model limits`,
    what: 'family3-h3 takes none of 480p, 720p, 1080p',
    path: SHARED,
    body: { model: 'family3-h3', resolution: '720p', content: [text(prompt)] },
    expected: 400,
  },
  {
    source: `${D1}, "Video models"`,
    what: 'family3-h3 at 2k',
    path: SHARED,
    body: { model: 'family3-h3', resolution: '2k', content: [text(prompt)] },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Video: create task (shared)", model limits`,
    what: 'family2 models have no 21:9',
    path: SHARED,
    body: { model: 'family2-video', ratio: '21:9', content: [text(prompt)] },
    expected: 400,
  },
  {
    source: `${D1}, "Video: create task (shared)", model limits`,
    what: 'family4-video has no 480p',
    path: SHARED,
    body: { model: 'family4-video', resolution: '480p', content: [text(prompt)] },
    expected: 400,
  },
  {
    source: `${D1}, "Video: create task (shared)", duration`,
    what: 'family1 requires 4-15 s: 3 s',
    path: SHARED,
    body: { model: 'family1-video-2-pro', duration: 3, content: [text(prompt)] },
    expected: 400,
  },
  {
    source: `${D1}, "Video models"`,
    what: 'family2 takes 2 s',
    path: SHARED,
    body: { model: 'family2-video', duration: 2, content: [text(prompt)] },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Content items"`,
    what: 'family1 models reject a text over 1500 characters',
    path: SHARED,
    body: { model: 'family1-video-2-fast', content: [text('x'.repeat(1501))] },
    expected: 400,
  },
  {
    source: `${D1}, "Content items"`,
    what: 'family2 takes 1501 characters',
    path: SHARED,
    body: { model: 'family2-video', content: [text('x'.repeat(1501))] },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Limits"`,
    what: 'a prompt over 2500 characters',
    path: SHARED,
    body: { model: 'family2-video', content: [text('x'.repeat(2501))] },
    expected: 400,
  },
  {
    source: `${D1}, "Content items"`,
    what: 'last_frame without a first_frame (family1)',
    path: SHARED,
    body: { model: 'family1-video-2-pro', content: [text(prompt), image(1, 'last_frame')] },
    expected: 400,
  },
  {
    source: `${D1}, "Content items"`,
    what: 'family3-h3 accepts last_frame alone',
    path: SHARED,
    body: { model: 'family3-h3', resolution: '2k', content: [text(prompt), image(1, 'last_frame')] },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Content items", rule 2`,
    what: 'frame and reference roles mixed',
    path: SHARED,
    body: { model: 'family1-video-2-pro', content: [text(prompt), image(1, 'first_frame'), image(2, 'reference_image')] },
    expected: 400,
  },
  {
    source: `${D1}, "Content items"`,
    what: 'video_url without inputVideoDuration',
    path: SHARED,
    body: { model: 'family1-video-2-pro', content: [text(prompt), video] },
    expected: 400,
  },
  {
    source: `${D1}, "Content items"`,
    what: 'audio with a prompt alone on family1 (needs an image or a video)',
    path: SHARED,
    body: { model: 'family1-video-2-pro', content: [text(prompt), audio] },
    expected: 400,
  },
  {
    source: `${D1}, "Content items"`,
    what: 'family2 accepts a prompt plus audio alone',
    path: SHARED,
    body: { model: 'family2-video', content: [text(prompt), audio] },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Content items"`,
    what: 'audio_url is unsupported on family4',
    path: SHARED,
    body: { model: 'family4-video', content: [text(prompt), image(1, 'reference_image'), audio] },
    expected: 400,
  },
  {
    source: `${D1}, "Video: create task (shared)", seed`,
    what: 'seed above 4294967295',
    path: SHARED,
    body: { seed: 4294967296, content: [text(prompt)] },
    expected: 400,
  },
  {
    source: `${D1}, "Video: create task (shared)", seed`,
    what: 'seed -1 (random)',
    path: SHARED,
    body: { seed: -1, content: [text(prompt)] },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Content items", rule 1`,
    what: 'family3-h3 allows at most five images',
    path: SHARED,
    body: { model: 'family3-h3', resolution: '2k', content: [text(prompt), ...[1, 2, 3, 4, 5, 6].map((n) => image(n, 'reference_image'))] },
    expected: 400,
  },
  // document 1, "Video: family5 create" and "Errors" (32004: invalid parameters or unsupported capability combination)
  {
    source: `${D1}, "Video: family5 create"`,
    what: 'text_to_video with a prompt',
    path: FAMILY5,
    body: { capability: 'text_to_video', prompt },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Video: family5 create"`,
    what: 'text_to_video needs a prompt',
    path: FAMILY5,
    body: { capability: 'text_to_video' },
    expected: { code: 32004 },
  },
  { source: `${D1}, "Video: family5 create"`, what: 'an unknown capability', path: FAMILY5, body: { capability: 'dance', prompt }, expected: { code: 32004 } },
  {
    source: `${D1}, "Video: family5 create", capability rules`,
    what: 'transition needs exactly 2 images',
    path: FAMILY5,
    body: { capability: 'transition', prompt, images: [{ url: 'https://example.com/1.png' }] },
    expected: { code: 32004 },
  },
  {
    source: `${D1}, "Video: family5 create"`,
    what: 'image_to_video with one image',
    path: FAMILY5,
    body: { capability: 'image_to_video', prompt, images: [{ url: 'https://example.com/1.png' }] },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Limits"`,
    what: 'a prompt over 2048 characters',
    path: FAMILY5,
    body: { capability: 'text_to_video', prompt: 'x'.repeat(2049) },
    expected: { code: 32004 },
  },
  {
    source: `${D1}, "Limits"`,
    what: 'eleven images (up to 10)',
    path: FAMILY5,
    body: { capability: 'image_to_video', prompt, images: Array.from({ length: 11 }, (_, i) => ({ url: `https://example.com/${i}.png` })) },
    expected: { code: 32004 },
  },
  {
    source: `${D1}, "Video: family5 create"`,
    what: 'agent accepts only 20, 30 or 60 s',
    path: FAMILY5,
    body: { capability: 'agent', duration: 25, pixverse: { agentType: 'ad_master' }, images: [{ url: 'https://example.com/p.png' }] },
    expected: { code: 32004 },
  },
  {
    source: `${D1}, "Video: family5 create"`,
    what: 'a refName that does not match ^[A-Za-z][A-Za-z0-9_]{0,31}$',
    path: FAMILY5,
    body: {
      capability: 'fusion',
      prompt: 'with @1cat',
      pixverse: { imageReferences: [{ type: 'subject', imageUrl: 'https://example.com/c.png', refName: '1cat' }] },
    },
    expected: { code: 32004 },
  },
  // document 1, "Image: request schema", "Image models", "Limits"
  {
    source: `${D1}, "Image: request schema"`,
    what: 'image-a-2 with provider and prompt',
    path: IMAGE,
    body: { provider: 'vendor_a', prompt },
    expected: 'accepted',
  },
  { source: `${D1}, "Image: request schema"`, what: 'provider is required on generation', path: IMAGE, body: { prompt }, expected: 400 },
  { source: `${D1}, "Image: request schema"`, what: 'an unknown provider', path: IMAGE, body: { provider: 'vendor_z', prompt }, expected: 400 },
  {
    source: `${D1}, "Image: request schema"`,
    what: 'image-b with an extreme ratio: 29003',
    path: IMAGE,
    body: { provider: 'vendor_b', model: 'image-b-3-pro', prompt, imageConfig: { aspectRatio: '1:4' } },
    expected: { code: 29003 },
  },
  {
    source: `${D1}, "Image: request schema"`,
    what: 'image-a with an extreme ratio: 26019',
    path: IMAGE,
    body: { provider: 'vendor_a', model: 'image-a-2', prompt, imageConfig: { aspectRatio: '1:8' } },
    expected: { code: 26019 },
  },
  {
    source: `${D1}, "Image models"`,
    what: 'image-c-5-0-pro takes the extreme ratios',
    path: IMAGE,
    body: { provider: 'vendor_c', model: 'image-c-5-0-pro', prompt, imageConfig: { aspectRatio: '1:8' } },
    expected: 'accepted',
  },
  {
    source: `${D1}, "Image: request schema", size rules`,
    what: 'image-c-5-0-pro at 4K',
    path: IMAGE,
    body: { provider: 'vendor_c', model: 'image-c-5-0-pro', prompt, imageConfig: { imageSize: '4K' } },
    expected: 400,
  },
  {
    source: `${D1}, "Limits"`,
    what: 'image-a with five reference images (4)',
    path: IMAGE,
    body: {
      provider: 'vendor_a',
      prompt,
      referenceImages: [1, 2, 3, 4, 5].map((n) => ({ fileData: { fileUri: `https://example.com/${n}.png`, mimeType: 'image/png' } })),
    },
    expected: 400,
  },
  {
    source: `${D1}, "Image: request schema"`,
    what: 'a reference fileUri of another scheme (ftp)',
    path: IMAGE,
    body: { provider: 'vendor_a', prompt, referenceImages: [{ fileData: { fileUri: 'ftp://example.com/1.png', mimeType: 'image/png' } }] },
    expected: 400,
  },
  {
    source: `${D1}, "Image: request schema", size rules`,
    what: 'image-d-2.7-pro at 4K with a reference image',
    path: IMAGE,
    body: {
      provider: 'vendor_d',
      model: 'image-d-2.7-pro',
      prompt,
      imageConfig: { imageSize: '4K' },
      referenceImages: [{ fileData: { fileUri: 'https://example.com/1.png', mimeType: 'image/png' } }],
    },
    expected: 400,
  },
  {
    source: `${D1}, "Image models"`,
    what: 'image-d-2.7-pro at 4K, text to image',
    path: IMAGE,
    body: { provider: 'vendor_d', model: 'image-d-2.7-pro', prompt, imageConfig: { imageSize: '4K' } },
    expected: 'accepted',
  },
];

/** The operation of each path the cases post to. */
const opOf: Record<string, OperationId> = { [SHARED]: 'createVideoTask', [FAMILY5]: 'createFamily5VideoTask', [IMAGE]: 'createImageTask' };

describe('body rules against cases written from document 1', () => {
  it('the cases are many, each cites its section, and they cover acceptance and each kind of refusal', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const c of cases) expect(c.source).toMatch(/^document 1, "/);
    for (const kind of ['accepted', 400, 32004, 29003, 26019])
      expect(cases.some((c) => (typeof c.expected === 'object' ? c.expected.code : c.expected) === kind)).toBe(true);
  });

  it('the mock and ajv over spec/openapi.json answer every case as document 1 says', async () => {
    const run = await runDocumentCases(
      cases.map(({ path, expected, ...c }) => ({
        ...c,
        op: opOf[path],
        body: c.body as Body,
        // document 1 numbers the family5 and image codes it gives, all of HTTP 400 ("Errors")
        expected: typeof expected === 'object' ? { status: 400, code: expected.code } : expected,
      })),
      1,
    );
    console.log(describeRun('document 1', run));
    expect(run.mockDiffer).toEqual([]);
    expect(run.ajvDiffer).toEqual([]);
  });
});
