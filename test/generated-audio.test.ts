/**
 * The two generated-audio services (document 2, "Generated-audio task",
 * "Generated-audio tasks (prefix P = ...)", "Errors", "Limits"), every case
 * parameterised by service (P1 /v1/platform-voice, P2 /v1/seed-audio, from
 * `generatedAudioServices`): the request rules (status, code, the message
 * naming the field), the lifecycle on the manual clock with the audio decoded,
 * money (price, reserve, capture, release, refunds), the rate and concurrency
 * limits, the list (order, pages, status, keyword), owner scoping and the
 * params echo.
 *
 * Limits, the list and the params echo are test/generated-audio-list.test.ts;
 * the shared helpers test/generated-audio-helpers.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { generatedAudioFormats, generatedAudioLimits, generatedAudioPrice, generatedAudioSchedule } from '../schemas/generated-audio.ts';
import { decodeAudio } from '../verify/decoders.ts';
import { pathOf } from './factories.ts';
import type { TestMock } from './helpers.ts';
import {
  account,
  create,
  decodedAs,
  doneAfterMs,
  expectError,
  genBody,
  getTask,
  ledgerOf,
  listTasks,
  otherOf,
  ruleCases,
  services,
  setCredits,
  toleranceMs,
} from './generated-audio-helpers.ts';
import { useMocks } from './helpers.ts';

const start = useMocks();

describe.each(services)('$prefix ($model): generate rules', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each(ruleCases(svc))('%s', async (_case, body, expected) => {
    const r = await m.call('POST', pathOf(svc.create), { body });
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(202);
      expect(r.json.data).toEqual({ taskId: expect.stringMatching(new RegExp(`^${svc.idPrefix}_`)), status: 'pending' });
    } else {
      expectError(r, expected);
      expect((await account(m)).credits, 'a refused request reserves nothing').toBe(10_000);
    }
  });
});

// ---------------------------------------------------------------------------
// Lifecycle and the audio
// ---------------------------------------------------------------------------

describe.each(services)('$prefix ($model): lifecycle on the manual clock', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each(generatedAudioFormats.map((f) => [f]))(
    'format %s: pending -> generating -> uploading -> success; the audio decodes to audioDuration',
    async (format) => {
      const hint = 4;
      const id = await create(m, svc, genBody({ durationHint: hint, audioConfig: { format } }));
      const pending = await getTask(m, svc, id);
      expect(pending).toMatchObject({ id, status: 'pending', model: svc.model, audioDuration: 0, creditCharged: 0, creditRefunded: 0 });
      expect(pending.audioUrl).toBeUndefined();
      expect(pending.errorMessage).toBeUndefined();
      const t0 = pending.createdAt as number;
      expect(pending.updatedAt).toBe(t0);

      await m.advance(generatedAudioSchedule.pendingMs - 1);
      expect((await getTask(m, svc, id)).status).toBe('pending');
      await m.advance(1);
      const generating = await getTask(m, svc, id);
      expect(generating).toMatchObject({ status: 'generating', audioDuration: 0, creditCharged: 0, updatedAt: t0 + generatedAudioSchedule.pendingMs });
      expect(generating.audioUrl).toBeUndefined();

      // generating lasts 2 s + 10% of the audio (about hint s): uploading half a second after that
      const uploadingAt = generatedAudioSchedule.pendingMs + generatedAudioSchedule.generatingBaseMs + hint * 1000 * generatedAudioSchedule.generatingPerAudio;
      await m.advance(uploadingAt + 500 - generatedAudioSchedule.pendingMs);
      const uploading = await getTask(m, svc, id);
      expect(uploading).toMatchObject({ status: 'uploading', audioDuration: 0, creditCharged: 0 });
      expect(uploading.audioUrl, 'no audioUrl while uploading').toBeUndefined();

      await m.advance(generatedAudioSchedule.uploadingMs);
      const done = await getTask(m, svc, id);
      expect(done).toMatchObject({ status: 'success', audioUrl: expect.any(String), creditRefunded: expect.any(Number) });
      expect(done.audioDuration).toBeGreaterThan(0);
      expect(done.audioDuration).toBeLessThanOrEqual(hint);
      expect(done.creditCharged).toBe(generatedAudioPrice(done.audioDuration, svc.creditsPerMinute));
      expect(done.errorMessage).toBeUndefined();
      expect(done.params.audioConfig.format).toBe(format);

      const res = await fetch(done.audioUrl);
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const a = await decodeAudio(bytes, decodedAs[format]);
      expect(Math.abs(a.durationMs - done.audioDuration * 1000), `${format}: ${a.durationMs} ms for ${done.audioDuration} s`).toBeLessThanOrEqual(
        toleranceMs[format] + 1e-6,
      );
      // the audio is this service's own media
      expect(new URL(done.audioUrl).pathname.startsWith(`/media/${svc.prefix.split('/').pop()}/`)).toBe(true);
    },
  );

  it('without durationHint the audio is the speaking-rate estimate (within 1-110 s) and succeeds on schedule', async () => {
    const id = await create(m, svc, genBody({ audioConfig: { format: 'wav' } }));
    await m.advance(doneAfterMs(110_000));
    const t = await getTask(m, svc, id);
    expect(t.status).toBe('success');
    expect(t.audioDuration).toBeGreaterThanOrEqual(1);
    expect(t.audioDuration).toBeLessThan(10);
  });

  it('a faster speechRate makes shorter audio', async () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve';
    const slow = await create(m, svc, genBody({ text, audioConfig: { format: 'wav' } }));
    const fast = await create(m, svc, genBody({ text, audioConfig: { format: 'wav', speechRate: 100 } }));
    await m.advance(doneAfterMs(110_000));
    const [a, b] = [await getTask(m, svc, slow), await getTask(m, svc, fast)];
    expect(b.audioDuration).toBeLessThan(a.audioDuration);
  });

  it("the audio is not served before success, nor under the other service's media", async () => {
    const id = await create(m, svc, genBody({ durationHint: 2 }));
    const base = `/media/${svc.prefix.split('/').pop()}`;
    expect((await fetch(`${m.base}${base}/${id}.mp3`)).status).toBe(404);
    await m.advance(doneAfterMs(2000));
    const t = await getTask(m, svc, id);
    expect((await fetch(t.audioUrl)).status).toBe(200);
    const otherBase = `/media/${otherOf(svc).prefix.split('/').pop()}`;
    expect((await fetch(`${m.base}${otherBase}/${id}.mp3`)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

/** Credits charged for durationHint 1, 2, 59 and 61 s of mp3 (the rendered length: whole 24 ms frames, never over the hint). */
const chargesByHint: Record<string, number[]> = { platformVoice: [1, 1, 30, 31], seedAudio: [1, 2, 40, 41] };
const HINTS = [1, 2, 59, 61];

describe.each(services)('$prefix ($model): money', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each(HINTS.map((hint, i) => [hint, chargesByHint[svc.name][i]]))(
    'durationHint %s s: charges %s; the ledger reserves the hint, captures, releases any difference',
    async (hint, charge) => {
      const reserve = generatedAudioPrice(hint, svc.creditsPerMinute);
      const id = await create(m, svc, genBody({ durationHint: hint }));
      expect(await ledgerOf(m, id)).toEqual([['reserve', -reserve]]);
      expect((await account(m)).credits).toBe(10_000 - reserve);
      await m.advance(doneAfterMs(hint * 1000));
      const t = await getTask(m, svc, id);
      expect(t.status).toBe('success');
      expect(t.audioDuration).toBeLessThanOrEqual(hint);
      expect(t.audioDuration).toBeGreaterThan(hint - 0.024);
      expect(t.creditCharged).toBe(charge);
      expect(t.creditCharged).toBe(Math.max(1, Math.ceil((Math.round(t.audioDuration * 1000) * svc.creditsPerMinute) / 60_000)));
      expect(t.creditRefunded).toBe(reserve - charge);
      const entries = await ledgerOf(m, id);
      expect(entries.slice(0, 2)).toEqual([
        ['reserve', -reserve],
        ['capture', 0],
      ]);
      expect(entries.slice(2)).toEqual(reserve > charge ? [['release', reserve - charge]] : []);
      expect((await account(m)).credits).toBe(10_000 - charge);
    },
  );

  it('wav at durationHint 59 and 61 s: the exact length is billed (P1 29.5 -> 30, 30.5 -> 31 at 30 a minute)', async () => {
    for (const hint of [59, 61]) {
      const id = await create(m, svc, genBody({ durationHint: hint, audioConfig: { format: 'wav' } }));
      await m.advance(doneAfterMs(hint * 1000));
      const t = await getTask(m, svc, id);
      expect(t.audioDuration).toBe(hint);
      expect(t.creditCharged).toBe(Math.ceil((hint * svc.creditsPerMinute) / 60));
      expect(t.creditRefunded).toBe(0);
    }
  });

  it('without durationHint: reserves the price of 110 s, captures the short audio, releases the rest', async () => {
    const reserve = generatedAudioPrice(generatedAudioLimits.durationHint.max, svc.creditsPerMinute);
    const id = await create(m, svc, genBody());
    expect(await ledgerOf(m, id)).toEqual([['reserve', -reserve]]);
    await m.advance(doneAfterMs(110_000));
    const t = await getTask(m, svc, id);
    expect(t.status).toBe('success');
    const charge = generatedAudioPrice(t.audioDuration, svc.creditsPerMinute);
    expect(charge).toBeLessThan(reserve);
    expect(t.creditCharged).toBe(charge);
    expect(t.creditRefunded).toBe(reserve - charge);
    expect(await ledgerOf(m, id)).toEqual([
      ['reserve', -reserve],
      ['capture', 0],
      ['release', reserve - charge],
    ]);
    expect((await account(m)).credits).toBe(10_000 - charge);
  });

  it.each([
    ['Prefer: outcome=failed', 'outcome=failed', errorCatalog.GEN_AUDIO_UNAVAILABLE.code],
    ['Prefer: outcome=failed, error=33008', `outcome=failed, error=${errorCatalog.GEN_AUDIO_TIMED_OUT.code}`, errorCatalog.GEN_AUDIO_TIMED_OUT.code],
  ])('%s: failed, every reserved credit refunded', async (_n, prefer, code) => {
    const hint = 30;
    const reserve = generatedAudioPrice(hint, svc.creditsPerMinute);
    const id = await create(m, svc, genBody({ durationHint: hint }), { prefer });
    await m.advance(doneAfterMs(hint * 1000));
    const t = await getTask(m, svc, id);
    expect(t).toMatchObject({ status: 'failed', audioDuration: 0, creditCharged: 0, creditRefunded: reserve });
    expect(t.errorMessage).toMatch(new RegExp(`^${code}\\b`));
    expect(t.audioUrl).toBeUndefined();
    expect(await ledgerOf(m, id)).toEqual([
      ['reserve', -reserve],
      ['release', reserve],
    ]);
    expect((await account(m)).credits).toBe(10_000);
  });

  it('Prefer: outcome=stuck: still open after 9 minutes, failed with 33008 and refunded at 10 minutes', async () => {
    const reserve = generatedAudioPrice(generatedAudioLimits.durationHint.max, svc.creditsPerMinute);
    const id = await create(m, svc, genBody(), { prefer: 'outcome=stuck' });
    await m.advance(9 * 60_000);
    const open = await getTask(m, svc, id);
    expect(['pending', 'generating', 'uploading']).toContain(open.status);
    expect((await account(m)).credits).toBe(10_000 - reserve);
    await m.advance(generatedAudioSchedule.timeoutMs - 9 * 60_000);
    const t = await getTask(m, svc, id);
    expect(t).toMatchObject({ status: 'failed', audioDuration: 0, creditCharged: 0, creditRefunded: reserve });
    expect(t.errorMessage).toMatch(new RegExp(`^${errorCatalog.GEN_AUDIO_TIMED_OUT.code}\\b`));
    expect((await account(m)).credits).toBe(10_000);
  });

  it('a short balance: 400 33006, nothing reserved, no task', async () => {
    const reserve = generatedAudioPrice(61, svc.creditsPerMinute);
    await setCredits(m, reserve - 1);
    const before = (await account(m)).ledger.length;
    expectError(await m.call('POST', pathOf(svc.create), { body: genBody({ durationHint: 61 }) }), 'GEN_AUDIO_INSUFFICIENT_CREDITS');
    const after = await account(m);
    expect(after.credits).toBe(reserve - 1);
    expect(after.ledger.length).toBe(before);
    expect((await listTasks(m, svc)).total).toBe(0);
    // exactly the reservation is enough
    await setCredits(m, reserve);
    await create(m, svc, genBody({ durationHint: 61 }));
    expect((await account(m)).credits).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// Limits (rate limits on)
// ---------------------------------------------------------------------------
